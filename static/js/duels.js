// Duels in a room reuse the solo pages' scripts (domino.js, cardoku.js). Those listen for
// htmx's request events to remember focus before a move and to restore it after the board
// is swapped. Over the room socket there are no requests, so translate: a message sent from
// the board is a "request", and every message received settles the board again.
// A timed duel also asks the server to end it when its clock runs out: one timer, reset by
// every render (the server ends it anyway, through the room sweep).
(function () {
  "use strict";
  let deadline = null;
  function board() { return document.getElementById("ck-game") || document.getElementById("game"); }
  function fire(el, name) { el.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: { duel: true } })); }

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

  document.addEventListener("htmx:wsConfigSend", function (event) {
    const from = event.target;
    if (from && from.closest && from.closest("#game") && !from.hasAttribute("data-deadline-sync")) fire(from, "htmx:beforeRequest");
  });
  // Another player's move reaches this socket as the standings alone (their one id): that
  // is not the answer to this player's move, which may still be on its way.
  function othersOnly(message) {
    const ids = String(message || "").match(/\sid="[^"]*"/g) || [];
    return ids.length === 1 && ids[0] === ' id="standings"';
  }
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (!othersOnly(event.detail && event.detail.message)) fire(document.body, "htmx:afterRequest");
    const el = board();
    if (el) fire(el, "htmx:afterSettle");
    armDeadline();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", armDeadline); else armDeadline();
})();
