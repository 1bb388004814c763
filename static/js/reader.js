// Screen-reader mode (issue 44), for every game page: Solo Run and the daily, Showdown, Cardoku
// and Domino, alone or in a room. On only when <html data-reader="on"> (the player's setting).
// Like lichess's blind mode, commands read what the page shows through a polite live region
// (templates/games/reader.html): the row, column or box of the cell you are on, the digits left,
// the clock, the score, the standings, the hand. Everything is read from the page itself,
// never from the server (which sends no solution): a wrong digit's reason is the duplicate the
// player can see. Rivals' news (the room's toasts, static/js/party.js) goes through a second
// region, queued: one announcement every few seconds, several coalesced, held back while the
// player's own move is being answered.
(function () {
  "use strict";
  const root = document.getElementById("reader");
  if (!root) return;
  function on() { return document.documentElement.dataset.reader === "on"; }

  const EVENT_GAP = 4000;  // ms between two announcements of rivals' news
  const OWN_QUIET = 2000;  // ms after the player's own key or answer with no news read

  function word(name, values) {
    let text = root.dataset["say" + name[0].toUpperCase() + name.slice(1)] || "";
    for (const key in values || {}) text = text.split("{" + key + "}").join(String(values[key]));
    return text;
  }

  // ------------------------------------------------------------------ speaking
  const live = document.getElementById("reader-live");
  const events = document.getElementById("reader-events");
  let lastOwn = 0;
  // The same words twice in a row are still read: the region is emptied first, then filled
  // a moment later (a screen reader hears a change only).
  function say(text) {
    if (!text) return;
    lastOwn = performance.now();
    live.textContent = "";
    setTimeout(function () { live.textContent = text; }, 60);
  }

  // Text as a screen reader would get it, roughly: the names of labelled elements (and a
  // named group's contents after its name) and the text of the rest, nothing hidden, each piece a short pause apart (a comma); a definition
  // list's term runs on into its value ("Score: 30"). Separators such as "·" are dropped.
  function spoken(el) {
    const chunks = [];
    (function walk(node) {
      if (node.nodeType === 3) { chunks.push(node.textContent); return; }
      if (node.nodeType !== 1 || node.hidden || node.getAttribute("aria-hidden") === "true") return;
      const tag = node.tagName.toLowerCase();
      if (tag === "progress" || tag === "script" || tag === "template") return;
      // A named container (a group, a region) is read with its name and then its contents.
      const label = node.getAttribute("aria-label");
      if (label) chunks.push(label);
      if (label && !/^(group|region)$/.test(node.getAttribute("role") || "")) return;
      for (const child of node.childNodes) walk(child);
      if (tag === "dt") chunks.push(":");
    })(el);
    let text = "";
    for (let chunk of chunks) {
      chunk = chunk.replace(/\s+/g, " ").replace(/^[\s·|–-]+|[\s·|]+$/g, "");
      if (chunk === ":") { text += ":"; continue; }
      if (!/[\p{L}\p{N}]/u.test(chunk)) continue;
      text += text && !text.endsWith(":") ? ", " + chunk : (text ? " " : "") + chunk;
    }
    return text;
  }

  // ------------------------------------------------------------------ the board
  function gridOf(el) { return el && el.closest && el.closest("[role=grid]"); }
  function board() { return document.querySelector("#game [role=grid], #ck-game [role=grid], [role=grid][data-board]"); }
  // The cell the player is on: the focused one, the board's selected one, or for Domino the
  // line (row or column) of the focused entry marker.
  function here() {
    const active = document.activeElement;
    const cell = active && active.closest && active.closest("[role=gridcell][data-row]");
    if (cell) return { cell: cell };
    const marker = active && active.closest && active.closest("[data-marker][data-edge]");
    if (marker) {
      const line = Number(marker.dataset.line);
      return { line: line, kind: /left|right/.test(marker.dataset.edge) ? "row" : "col" };
    }
    const b = board();
    const chosen = b && (b.querySelector('[role=gridcell][aria-selected="true"]') || b.querySelector("[role=gridcell][tabindex='0']"));
    return chosen ? { cell: chosen } : null;
  }
  function boxOf(cell) {
    if (cell.dataset.box) return Number(cell.dataset.box);
    return Math.floor((cell.dataset.row - 1) / 3) * 3 + Math.floor((cell.dataset.col - 1) / 3) + 1;
  }
  // A cell's contents without its "Row 3, column 5" (the first two parts of its name): a
  // Sudoku cell says its digit or "empty"; a Cardoku or Domino cell its card or stone.
  function contents(cell) {
    if (cell.dataset.value !== undefined) return cell.dataset.value || word("empty");
    const rest = (cell.getAttribute("aria-label") || "").split(", ").slice(2).join(", ");
    return rest || word("empty");
  }
  function readUnit(kind) {
    const at = here();
    const b = at && at.cell ? gridOf(at.cell) : board();
    if (!at || !b) { say(word("noCell")); return; }
    let n;
    if (!at.cell) {  // a Domino marker: Shift+R and Shift+C alike read its line
      if (kind === "box") { say(word("noCell")); return; }
      kind = at.kind;
      n = at.line;
    } else n = kind === "box" ? boxOf(at.cell) : Number(at.cell.dataset[kind]);
    if (Number.isNaN(n)) { say(word("noCell")); return; }
    const unit = Array.from(b.querySelectorAll("[role=gridcell][data-row]")).filter(function (c) {
      return (kind === "box" ? boxOf(c) : Number(c.dataset[kind])) === n;
    });
    // A digit twice in a unit is told after it (Blindfold Sudoku's warning tone).
    const seen = {};
    for (const c of unit) if (c.dataset.value) seen[c.dataset.value] = (seen[c.dataset.value] || 0) + 1;
    const twice = Object.keys(seen).filter(function (d) { return seen[d] > 1; }).map(function (d) { return word("twice", { d: d }); });
    say(word(kind, { n: n }) + ": " + unit.map(contents).concat(twice).join(", "));
  }

  function digitsLeft() {
    const at = here();
    const digit = at && at.cell && at.cell.dataset.value;
    const buttons = Array.from(document.querySelectorAll(".pad [data-digit]"));
    if (!buttons.length) { say(word("none")); return; }
    const left = buttons.map(function (button) {
      const small = button.querySelector("[data-left]");
      return { d: button.dataset.digit, n: small ? Number(small.dataset.left) : 0 };
    }).filter(function (x) { return digit ? x.d === digit : x.n > 0; });
    say(left.length ? left.map(function (x) { return word("left", x); }).join(", ") : word("allPlaced"));
  }

  function readClock() {
    const domino = document.getElementById("dm-clock");
    if (domino) { say(spoken(domino)); return; }
    const clock = document.querySelector("[data-race-clock], #game [data-clock], [data-clock]");
    say(clock ? word("time", { t: clock.textContent.trim() }) : word("none"));
  }

  function readFirst(selectors) {
    for (const selector of selectors) {
      const found = Array.from(document.querySelectorAll(selector)).map(spoken).filter(Boolean);
      if (found.length) { say(found.join(". ")); return; }
    }
    say(word("none"));
  }
  function readStandings() {
    const rows = document.querySelectorAll("#standings [data-seat]");
    say(rows.length ? Array.from(rows).map(spoken).join(". ") : word("none"));
  }

  // ------------------------------------------------------------------ a wrong digit's reason
  // The refused digit's duplicate among the digits on the board, checked row, column, box.
  function reason(cell) {
    const digit = cell.dataset.wrong;
    const cells = Array.from(gridOf(cell).querySelectorAll("[role=gridcell][data-row]"));
    for (const [kind, name] of [["row", "inRow"], ["col", "inCol"], ["box", "inBox"]]) {
      const key = kind === "box" ? boxOf(cell) : cell.dataset[kind];
      const clash = cells.some(function (c) {
        return c !== cell && c.dataset.value === digit && String(kind === "box" ? boxOf(c) : c.dataset[kind]) === String(key);
      });
      if (clash) return word(name, { d: digit, n: key });
    }
    return "";
  }
  document.addEventListener("board:swapped", function () {
    if (!on()) return;
    for (const cell of document.querySelectorAll("[role=grid] [data-wrong]:not([data-reader-told])")) {
      cell.dataset.readerTold = "";
      say(reason(cell));
    }
  });
  document.addEventListener("board:sending", function () { lastOwn = performance.now(); });
  document.addEventListener("board:answered", function () { lastOwn = performance.now(); });

  // ------------------------------------------------------------------ rivals' news
  // In this mode the room's toasts are not a live region of their own: their words are queued
  // here, read one announcement at a time, several joined when they pile up.
  const queue = [];
  let lastEvent = -EVENT_GAP;
  let timer = 0;
  function pump() {
    timer = 0;
    if (!queue.length) return;
    const now = performance.now();
    const wait = Math.max(lastEvent + EVENT_GAP - now, lastOwn + OWN_QUIET - now);
    if (wait > 0) { timer = setTimeout(pump, wait); return; }
    lastEvent = now;
    events.textContent = queue.splice(0).join(". ");
  }
  const toasts = document.getElementById("toasts");
  if (toasts) {
    new MutationObserver(function (records) {
      if (!on()) return;
      for (const record of records) for (const node of record.addedNodes) {
        const text = node.nodeType === 1 ? node.textContent.trim() : "";
        if (text && queue.indexOf(text) < 0) queue.push(text);
      }
      if (!timer) pump();
    }).observe(toasts, { childList: true });
  }

  // ------------------------------------------------------------------ keys and help
  const help = document.getElementById("reader-help");
  let returnTo = null;
  function showHelp(show) {
    if (show) {
      returnTo = document.activeElement;
      help.hidden = false;
      help.focus();
    } else {
      help.hidden = true;
      if (returnTo && returnTo.isConnected) returnTo.focus();
      else { const b = board(); const cell = b && b.querySelector("[tabindex='0']"); if (cell) cell.focus(); }
    }
  }
  root.addEventListener("click", function (event) { if (event.target.closest("[data-reader-close]")) showHelp(false); });

  const COMMANDS = {
    R: function () { readUnit("row"); },
    C: function () { readUnit("col"); },
    B: function () { readUnit("box"); },
    N: digitsLeft,
    H: function () { readFirst(["#ck-current, #ck-deck", "#dm-hand"]); },
    I: function () { readFirst(["#game .stats", ".domino-hud", "#ck-score"]); },
    T: readClock,
    S: readStandings,
    L: function () { readFirst(["#game-message, #room-message", ".ck-message", "[data-message]", "#domino-live"]); },
  };
  // Capture, before the games' own keys: Shift+N is not Notes here, Shift+R not restrictions.
  // Shift+H stays the hint key where no hand is to be read (Sudoku).
  window.addEventListener("keydown", function (event) {
    if (!on() || event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    let run = null;
    if (event.key === "?") run = function () { showHelp(help.hidden); };
    else if (event.key === "Escape" && !help.hidden) run = function () { showHelp(false); };
    else if (event.shiftKey && COMMANDS[event.key.toUpperCase()] && event.key.length === 1) {
      if (event.key.toUpperCase() === "H" && !document.querySelector("#ck-current, #dm-hand")) return;
      run = COMMANDS[event.key.toUpperCase()];
    }
    if (!run) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    run();
  }, true);

  function start() {
    if (!on()) return;
    if (toasts) toasts.setAttribute("aria-live", "off");
    const note = root.querySelector("[data-reader-note]");
    if (note) note.hidden = false;
  }
  // The setting can change without a reload (the settings page): the toasts follow it.
  new MutationObserver(function () {
    if (toasts) toasts.setAttribute("aria-live", on() ? "off" : "polite");
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-reader"] });
  start();
})();
