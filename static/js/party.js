// A race you can feel (issue 27): toasts for everyone in the room when a rival finishes, is
// out or leaves, and when someone joins or leaves the lobby; the words come from the page, in
// its language (the standings' data-event, the lobby's data-joined and data-left), and are
// shown when a socket message changes them, never for what was already there on load. Quick
// reactions arrive from the server as toasts of their own. #toasts is a log: screen readers
// announce each. A player racing on alone is told so (data-last-one).
(function () {
  "use strict";
  const SHOW_MS = 5000;
  const MAX = 4;
  const box = document.getElementById("toasts");
  if (!box) return;

  function colourOf(el) {
    const found = (el.className || "").match(/racer-c\d/);
    return found ? found[0] : "";
  }
  function toast(text, colour) {
    if (!text) return;
    const el = document.createElement("div");
    el.className = "toast" + (colour ? " " + colour : "");
    el.textContent = text;
    box.appendChild(el);
  }
  // Toasts never cover the room's code, its clock or the board (issue 43): at the foot of the
  // screen (the stylesheet's place), or at the top when the foot would cover more, as on a
  // page scrolled to the board's lower edge. The pad, the standings and the reactions count
  // too, far less: a toast over them hides them a moment, over the board it hides the game.
  const CLEAR = [".room-head h1, .race-clock, #game [data-board], #game #ck-board, #game [data-domino-board]", 1000];
  const SPARE = ["#game .controls, #standings, .reactions", 1];
  function covers(at) {
    box.dataset.at = at;
    const r = box.getBoundingClientRect();
    let sum = 0;
    for (const [selector, weight] of [CLEAR, SPARE]) {
      for (const el of document.querySelectorAll(selector)) {
        const o = el.getBoundingClientRect();
        const w = Math.min(r.right, o.right) - Math.max(r.left, o.left);
        const h = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
        if (w > 0 && h > 0) sum += w * h * weight;
      }
    }
    return sum;
  }
  function place() {
    if (!box.children.length) return;
    const bottom = covers("bottom");
    if (bottom && covers("top") >= bottom) box.dataset.at = "bottom";
  }
  let placing = false;
  function placeSoon() {
    if (placing || !box.children.length) return;
    placing = true;
    requestAnimationFrame(function () { placing = false; place(); });
  }
  window.addEventListener("scroll", placeSoon, { passive: true });
  window.addEventListener("resize", placeSoon);

  // Every toast leaves after a while (this script's and the server's alike), and a burst
  // keeps only the newest few on screen.
  new MutationObserver(function (records) {
    for (const record of records) for (const node of record.addedNodes) {
      if (node.nodeType !== 1) continue;
      setTimeout(function () { node.classList.add("leaving"); setTimeout(function () { node.remove(); }, 350); }, SHOW_MS);
    }
    while (box.children.length > MAX) box.firstElementChild.remove();
    place();
  }).observe(box, { childList: true });

  function me() {
    const body = document.getElementById("room-body");
    return (body && body.dataset.me) || "";
  }

  let statuses = null;  // seat -> status, as the standings last said
  let lobby = null;     // seat -> {left, colour}, as the lobby's player list last said
  let alone = false;

  function lastOne() {
    const line = document.querySelector("[data-last-one]");
    const others = Array.from(document.querySelectorAll("#standings [data-seat]")).filter(function (row) {
      return row.dataset.seat !== me();
    });
    const now = !!line && others.length > 0 && others.every(function (row) { return row.dataset.status !== "playing"; });
    if (line) line.hidden = !now;
    const became = now && !alone;
    alone = now;
    return became ? line.textContent.trim() : "";
  }

  function look(cue) {
    const rows = document.querySelectorAll("#standings [data-seat]");
    if (rows.length) {
      const now = {};
      for (const row of rows) {
        const seat = row.dataset.seat;
        now[seat] = row.dataset.status;
        const before = statuses && statuses[seat];
        if (cue && before === "playing" && now[seat] !== "playing" && seat !== me()) toast(row.dataset.event, colourOf(row));
      }
      statuses = now;
    }
    const told = lastOne();
    if (cue) toast(told, "");
    if (document.querySelector('#room-body[data-state="lobby"]')) {
      const now = {};
      for (const player of document.querySelectorAll(".players [data-seat]")) {
        const seat = player.dataset.seat;
        now[seat] = { left: player.dataset.left, colour: colourOf(player) };
        if (cue && lobby && !lobby[seat] && seat !== me()) toast(player.dataset.joined, colourOf(player));
      }
      if (cue && lobby) for (const seat in lobby) if (!now[seat] && seat !== me()) toast(lobby[seat].left, lobby[seat].colour);
      lobby = now;
    } else {
      lobby = null;
    }
  }
  document.addEventListener("htmx:wsAfterMessage", function () { look(true); placeSoon(); });
  document.addEventListener("htmx:afterSettle", function () { look(true); placeSoon(); });
  look(false);
})();
