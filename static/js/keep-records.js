// "Sign in to keep your records on every device" on finish screens (issue 22): the server
// renders it, hidden, for a signed-out player; it is shown on the first finish this browser
// sees (its key is remembered in localStorage) and on that finish's re-renders only, never
// on a later finish. Without storage (a private window that refuses it) it shows every time.
(function () {
  "use strict";

  const KEY = "keep-records-offered";

  function first(key) {
    try {
      const offered = localStorage.getItem(KEY);
      if (offered !== null) return offered;
      localStorage.setItem(KEY, key);
    } catch (e) { /* no storage: nothing to remember with */ }
    return key;
  }
  function scan() {
    for (const el of document.querySelectorAll("[data-keep-records][hidden]:not([data-seen])")) {
      el.dataset.seen = "";
      if (first(el.dataset.keepRecords) === el.dataset.keepRecords) el.hidden = false;
    }
  }
  document.addEventListener("DOMContentLoaded", scan);
  document.addEventListener("htmx:afterSettle", scan);
  document.addEventListener("htmx:wsAfterMessage", scan);
})();
