// Duels in a room reuse the solo pages' scripts (domino.js, cardoku.js), which hear the
// room socket through board-events.js. A timed duel also asks the server to end it when
// its clock runs out: one timer, reset by every render (the server ends it anyway, through
// the room sweep).
(function () {
  "use strict";
  let deadline = null;

  function armDeadline() {
    clearTimeout(deadline);
    const form = document.querySelector("[data-deadline-sync]");
    if (!form) return;
    if (form.dueAt === undefined) form.dueAt = performance.now() + (Number(form.dataset.ms) || 0);  // as rendered
    deadline = setTimeout(function () {
      const now = document.querySelector("[data-deadline-sync]");
      if (now) now.requestSubmit();
    }, Math.max(0, form.dueAt - performance.now()));
  }

  document.addEventListener("htmx:wsAfterMessage", armDeadline);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", armDeadline); else armDeadline();
})();
