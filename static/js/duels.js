// Duels in a room reuse the solo pages' scripts (domino.js, cardoku.js). Those listen for
// htmx's request events to remember focus before a move and to restore it after the board
// is swapped. Over the room socket there are no requests, so translate: a message sent from
// the board is a "request", and every message received settles the board again.
(function () {
  "use strict";
  function board() { return document.getElementById("ck-game") || document.getElementById("game"); }
  function fire(el, name) { el.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: { duel: true } })); }

  document.addEventListener("htmx:wsConfigSend", function (event) {
    const from = event.target;
    if (from && from.closest && from.closest("#game")) fire(from, "htmx:beforeRequest");
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    fire(document.body, "htmx:afterRequest");
    const el = board();
    if (el) fire(el, "htmx:afterSettle");
  });
})();
