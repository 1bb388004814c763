// Room page: every socket message carries a unique id, so a message the htmx ws
// extension re-sends after a reconnect is applied once. The share link selects itself.
(function () {
  "use strict";
  function messageId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  document.addEventListener("htmx:wsConfigSend", function (event) {
    event.detail.parameters.mid = messageId();
  });
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-focus]")) event.target.select();
  });
})();
// Scheduled times: shown in the viewer's own zone, next to the host's.
document.addEventListener("htmx:afterSettle", localTimes);
document.addEventListener("DOMContentLoaded", localTimes);
function localTimes() {
  for (const el of document.querySelectorAll("[data-local-time]")) {
    const when = new Date(el.getAttribute("datetime"));
    if (!isNaN(when)) el.textContent = when.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" }) + " (your time)";
  }
}
