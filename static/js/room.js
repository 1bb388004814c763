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
