// The game scripts' own events (board.js, cardoku.js, domino.js), raised by both ways a move
// travels: an htmx request on a solo page and a message over the room socket. The scripts
// listen to these, never to either transport:
//   board:sending   on the form (or element) a move leaves from, as it leaves
//   board:answered  when an answer to this player's request has arrived
//   board:swapped   on the element swapped in (the game; the body when a socket message
//                   leaves no game), once it has settled
// detail.socket says which way it came; for a socket message, detail.focusWasInGame says
// whether focus was on the player's game as it arrived (it also brings other players' news).
(function () {
  "use strict";
  function raise(el, name, socket, extra) {
    const detail = Object.assign({ socket: socket }, extra);
    if (el) el.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: detail }));
  }
  function inGame(el) { return !!(el && el.closest && el.closest("#game, #ck-game")); }

  // ---------------------------------------------------------------- htmx (solo pages)
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (inGame(event.target)) raise(event.target, "board:sending", false);
  });
  // (A form swapped away by its own answer is no longer in the page: htmx tells its nearest
  // ancestor still there, which is where this hears it.)
  document.addEventListener("htmx:afterRequest", function (event) { raise(event.target, "board:answered", false); });
  document.addEventListener("htmx:afterSettle", function (event) { raise(event.target, "board:swapped", false); });

  // ---------------------------------------------------------------- a tap across a swap
  // A press on a square, cell or button that a swap takes away before the release gets no
  // click at all (the browser sends none when the pressed element has left the page): a fast
  // second tap on a Cardoku board, whose answer redraws every square the next card fits, was
  // lost, and so was a lobby button pressed as the socket's push redrew the room. A release
  // over the element that took its place (the same id, or the same button where the release
  // is) is its click.
  let pressed = null;
  document.addEventListener("pointerdown", function (event) {
    const el = event.isPrimary && event.button === 0 && event.target.closest &&
      event.target.closest("[role=gridcell][id], button");
    pressed = el || null;
  }, true);
  function sameButton(a, b) {
    const form = function (el) { const f = el.closest("form"); return f ? f.getAttribute("action") + " " + f.getAttribute("hx-post") : ""; };
    return a.type === b.type && a.name === b.name && a.value === b.value &&
      a.textContent.trim() === b.textContent.trim() && form(a) === form(b);
  }
  function successor(was, x, y) {
    if (was.id) return document.getElementById(was.id);
    const at = document.elementFromPoint(x, y);
    const now = at && at.closest && at.closest("button");
    return now && sameButton(was, now) ? now : null;
  }
  document.addEventListener("pointerup", function (event) {
    const was = pressed;
    pressed = null;
    if (!was || was.isConnected) return;
    const now = successor(was, event.clientX, event.clientY);
    if (!now) return;
    const box = now.getBoundingClientRect();
    if (event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom) return;
    let clicked = false;  // (should a browser send it one after all, it is not sent twice)
    function seen(click) { if (now.contains(click.target)) clicked = true; }
    document.addEventListener("click", seen, true);
    setTimeout(function () {
      document.removeEventListener("click", seen, true);
      if (!clicked && now.isConnected) now.click();
    }, 0);
  }, true);

  // ---------------------------------------------------------------- the room socket (duels)
  // Every message received swaps the board's elements; there are no requests, so a message
  // sent from the player's board is the "request" (not the duel clock's own sync).
  document.addEventListener("htmx:wsConfigSend", function (event) {
    const from = event.target;
    if (from && from.closest && from.closest("#game") && !from.hasAttribute("data-deadline-sync")) {
      raise(from, "board:sending", true);
    }
  });
  // Another player's move reaches this socket as the standings alone (their one id), and a
  // reaction as a toast alone: neither is the answer to this player's move, which may still
  // be on its way.
  function othersOnly(message) {
    const ids = String(message || "").match(/\sid="[^"]*"/g) || [];
    return ids.length === 1 && (ids[0] === ' id="standings"' || ids[0] === ' id="toasts"');
  }
  let focusWasInGame = false;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    const active = document.activeElement;
    focusWasInGame = !!(active && active.closest && active.closest("#game"));
  });
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (!othersOnly(event.detail && event.detail.message)) raise(document.body, "board:answered", true);
    const swapped = document.getElementById("ck-game") || document.getElementById("game") || document.body;
    raise(swapped, "board:swapped", true, { focusWasInGame: focusWasInGame });
  });
})();
