// Board interaction for Solo Run and Showdown: selecting cells, keyboard entry, the notes
// toggle and the clock. Every move is judged by the server; this file only picks the
// cell and presses the same buttons a pointer would.
(function () {
  "use strict";

  function board() { return document.querySelector("[data-board]"); }
  function cells() { const b = board(); return b ? Array.from(b.querySelectorAll("[data-cell]")) : []; }
  function selectedCell() { const b = board(); return b && b.querySelector('[aria-selected="true"]'); }
  // Whether a digit can go in: an empty cell, or with delayed feedback (the pad has Erase)
  // the player's own unjudged entry, which a digit overwrites; never a given or a hint.
  function takesDigit(cell) {
    if (!cell.dataset.value) return true;
    return cell.classList.contains("entered") && !!document.querySelector('#move-form [name="action"][value="erase"]');
  }

  function highlight(cell) {
    // The digit-first mode's chosen digit lights its cells; else the selected cell's digit.
    const value = digitFirst() && chosen ? chosen : cell ? cell.dataset.value : "";
    for (const c of cells()) {
      const peer = cell && c !== cell && (c.dataset.row === cell.dataset.row ||
        c.dataset.col === cell.dataset.col || c.dataset.box === cell.dataset.box);
      c.classList.toggle("peer", !!peer);
      c.classList.toggle("same", !!value && c.dataset.value === value && c !== cell);
    }
  }

  // The last cell selected, kept across swaps that redraw the whole game without a selection
  // (Pause hides the board, Resume brings it back): the player carries on where they were.
  let lastSelected = null;

  function select(cell, focus) {
    if (!cell) return;
    lastSelected = cell.dataset.cell;
    for (const c of cells()) {
      const on = c === cell;
      c.classList.toggle("selected", on);
      c.setAttribute("aria-selected", on ? "true" : "false");
      c.tabIndex = on ? 0 : -1;
    }
    const input = document.querySelector("[data-selected-input]");
    if (input) input.value = cell.dataset.cell;
    highlight(cell);
    if (focus) cell.focus();
  }

  // The board is one tab stop (roving tabindex): the selected cell, else the first cell.
  function ensureTabStop() {
    const b = board();
    if (b && !b.querySelector('[data-cell][tabindex="0"]')) {
      const first = b.querySelector("[data-cell]");
      if (first) first.tabIndex = 0;
    }
  }

  function move(dr, dc) {
    const cur = selectedCell();
    let i = cur ? Number(cur.dataset.cell) : 40;
    if (cur) i = ((Math.floor(i / 9) + dr + 9) % 9) * 9 + ((i % 9) + dc + 9) % 9;
    select(board().querySelector('[data-cell="' + i + '"]'), true);
  }

  // A key typed while the Solo Run pad waits for an answer (its buttons are disabled for
  // the request: hx-disabled-elt) is kept, with the cell selected as it was typed, and
  // pressed once the answer has settled: typing ahead of a slow connection drops no key.
  const typedAhead = [];
  function press(selector) {
    const button = document.querySelector(selector);
    if (!button) return;
    const form = button.closest("form");
    if (form && form.classList.contains("htmx-request")) {  // htmx would drop a second request
      const cell = selectedCell();
      if (typedAhead.length < 20) typedAhead.push({ selector: selector, cell: cell ? cell.dataset.cell : null, passing: passing });
      return;
    }
    if (!button.disabled) button.click();
  }
  function pressTypedAhead() {
    const next = typedAhead.shift();
    if (!next) return;
    const mine = lastSelected;
    const cell = next.cell !== null && board() && board().querySelector('[data-cell="' + next.cell + '"]');
    if (cell) select(cell, true);
    passing = next.passing;
    try { press(next.selector); } finally { passing = false; }
    // The key went to its own cell; the selection goes back to where the player has moved
    // on to since, so the keys they type next land there and not on the cell just sent.
    const back = mine !== null && board() && board().querySelector('[data-cell="' + mine + '"]');
    if (back && cell && back !== cell) select(back, true);
  }

  document.addEventListener("click", function (event) {
    const cell = event.target.closest("[data-board] [data-cell]");
    if (cell) {
      select(cell, true);
      if (digitFirst() && chosen && takesDigit(cell)) sendDigit(chosen);
      return;
    }
    if (event.target.closest("[data-digit-first]")) { setDigitFirst(!digitFirst()); return; }
    if (event.target.closest("[data-notes-undo]")) { undoMarks(); return; }
    const toggle = event.target.closest("[data-notes-toggle]");
    if (toggle) {
      const on = toggle.getAttribute("aria-pressed") !== "true";
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      const mode = document.querySelector("[data-mode-input]");
      if (mode) mode.value = on ? "note" : "enter";
    }
  });

  // Tabbing onto the board selects the cell focus lands on: digits go where the focus is.
  document.addEventListener("focusin", function (event) {
    const cell = event.target.closest && event.target.closest("[data-board] [data-cell]");
    if (cell && cell.getAttribute("aria-selected") !== "true") select(cell, false);
  });

  document.addEventListener("keydown", function (event) {
    if (!board() || event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (arrows[event.key]) { event.preventDefault(); move(...arrows[event.key]); return; }
    if (/^[1-9]$/.test(event.key)) {
      event.preventDefault();
      if (!selectedCell()) move(0, 0);
      sendDigit(event.key);
      return;
    }
    if (event.key === "Backspace" || event.key === "Delete") {
      const cell = selectedCell();
      if (cell && !cell.dataset.value && marksOf(cell)) {  // a cell's notes, cleared in one move
        event.preventDefault();
        sendMarks(cell, "", true);
        return;
      }
      // delayed feedback's Erase (absent elsewhere)
      if (document.querySelector('button[name="action"][value="erase"]')) event.preventDefault();
      press('button[name="action"][value="erase"]');
      return;
    }
    const key = event.key.toLowerCase();
    if (key === "u") press("[data-notes-undo]");
    else if (key === "n") press("[data-notes-toggle]");
    else if (key === "h") press('button[name="command"][value="hint"]');
    else if (key === "p") press('button[name="command"][value="pause"]');
  });

  // ------------------------------------------------------------------ input modes
  // Digit first (as sudoku.com and Good Sudoku offer): a tap on the pad picks the digit,
  // each tap on an empty cell then enters it (or notes it, in notes mode). A switch,
  // remembered in this browser. The keyboard keeps typing into the selected cell.
  const FIRST_KEY = "digit-first";
  let chosen = null;
  let passing = false;  // a pad press of ours, sent on past the digit-first choice
  function digitFirst() {
    try { return localStorage.getItem(FIRST_KEY) === "1"; } catch (e) { return false; }
  }
  function setDigitFirst(on) {
    try { on ? localStorage.setItem(FIRST_KEY, "1") : localStorage.removeItem(FIRST_KEY); } catch (e) { /* private mode */ }
    if (!on) chosen = null;
    showInput();
  }
  function sendDigit(digit) {
    passing = true;
    try { press('.pad [data-digit="' + digit + '"]'); } finally { passing = false; }
  }
  // The switches and the chosen digit, drawn again after every swap (answers redraw the pad).
  function showInput() {
    const on = digitFirst();
    for (const button of document.querySelectorAll("[data-digit-first]")) {
      button.hidden = false;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    for (const button of document.querySelectorAll(".pad [data-digit]")) {
      const picked = on && button.dataset.digit === chosen;
      button.classList.toggle("chosen", picked);
      if (on) button.setAttribute("aria-pressed", picked ? "true" : "false");
      else button.removeAttribute("aria-pressed");
    }
    for (const button of document.querySelectorAll("[data-notes-undo]")) {
      button.hidden = false;
      button.disabled = !undo.length;
    }
    highlight(selectedCell());
  }
  // In digit-first mode a pad tap picks (or drops) the digit instead of sending it.
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest(".pad [data-digit]");
    if (!button || passing || !digitFirst()) return;
    event.preventDefault();
    event.stopPropagation();
    chosen = chosen === button.dataset.digit ? null : button.dataset.digit;
    showInput();
  }, true);

  // Notes: Backspace clears a cell's notes in one move, and every change to notes can be
  // taken back (Undo note, U): the page remembers each cell's marks before the change and
  // sends them back as they were. Moves on the board itself are never undone.
  const undo = [];
  // Notes typed quickly go out before the answers come back: what each cell's marks will be
  // once the moves on their way land, until none is left on its way.
  const expected = new Map();
  let onTheWay = 0;
  document.addEventListener("board:sending", function () { onTheWay += 1; });
  document.addEventListener("board:answered", function () {
    onTheWay = Math.max(0, onTheWay - 1);
    if (!onTheWay) expected.clear();
  });
  function marksOf(cell) {
    if (expected.has(cell.dataset.cell)) return expected.get(cell.dataset.cell);
    return Array.from(cell.querySelectorAll(".notes span")).map(function (s) { return s.textContent.trim(); }).join("");
  }
  function toggled(marks, digit) {
    const set = new Set(marks.split("").filter(Boolean));
    set.has(digit) ? set.delete(digit) : set.add(digit);
    return Array.from(set).sort().join("");
  }
  function sendMarks(cell, marks, remember) {
    const form = document.querySelector("#move-form");
    const send = form && form.querySelector("[data-notes-send]");
    const input = form && form.querySelector("[data-marks-input]");
    if (!send || !input) return;
    if (remember) undo.push([cell.dataset.cell, marksOf(cell)]);
    select(cell, false);
    input.value = marks;
    expected.set(cell.dataset.cell, marks);
    send.click();  // a click, as the pad's: htmx and the socket extension read the button pressed
    showInput();
  }
  function undoMarks() {
    while (undo.length) {
      const [index, marks] = undo.pop();
      const cell = board() && board().querySelector('[data-cell="' + index + '"]');
      if (cell && !cell.dataset.value) { sendMarks(cell, marks, false); return; }
    }
    showInput();
  }
  // A note toggled from the pad: its cell's marks before it, for Undo note.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    const button = event.submitter;
    if (!form.matches || !form.matches("#move-form") || !button || button.name !== "digit") return;
    const mode = form.querySelector("[data-mode-input]");
    const cell = selectedCell();
    if (mode && mode.value === "note" && cell && !cell.dataset.value) {
      const before = marksOf(cell);
      undo.push([cell.dataset.cell, before]);
      expected.set(cell.dataset.cell, toggled(before, button.value));
      showInput();
    }
  });

  // ------------------------------------------------------------------ instant feedback
  // A typed digit shows at once in the selected cell with a pending style; the server's
  // answer replaces the cell (confirmed: the digit; refused: the empty cell, which then
  // shows the refused digit in red with a short shake before it goes). Only the answer
  // changes the cell's name for screen readers: the pending digit is aria-hidden.
  const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  let pendingTimer = 0;

  function overlay(cell, digit) {
    const span = document.createElement("span");
    span.className = "value";
    span.setAttribute("aria-hidden", "true");
    span.textContent = digit;
    Object.assign(span.style, { position: "absolute", inset: "0", display: "flex", alignItems: "center",
                                justifyContent: "center" });
    for (const child of cell.children) child.style.visibility = "hidden";
    cell.appendChild(span);
    return span;
  }

  function clearPending() {
    clearTimeout(pendingTimer);
    for (const span of document.querySelectorAll("[data-board] [data-pending]")) {
      const cell = span.parentElement;
      span.remove();
      for (const child of cell.children) child.style.visibility = "";
      cell.classList.remove("pending");
    }
  }

  // A digit pressed on a filled cell (a given or a judged digit) changes nothing: it is not
  // sent, so no refusal shows in red for a harmless tap. Capture runs before htmx and ws-send.
  document.addEventListener("submit", function (event) {
    const button = event.submitter;
    const cell = selectedCell();
    if (!event.target.matches || !event.target.matches("#move-form") || !button || button.name !== "digit") return;
    if (cell && !takesDigit(cell)) { event.preventDefault(); event.stopPropagation(); }
  }, true);

  document.addEventListener("submit", function (event) {
    const form = event.target;
    const button = event.submitter;
    if (!form.matches || !form.matches("#move-form")) return;
    // The last move's marks go: answers swap single cells, so only the newest one flashes.
    for (const c of cells()) c.classList.remove("wrong", "fresh");
    if (!button || button.name !== "digit") return;
    const mode = form.querySelector("[data-mode-input]");
    const cell = selectedCell();
    if ((mode && mode.value === "note") || !cell || !takesDigit(cell) || cell.querySelector("[data-pending]")) return;
    clearPending();
    const span = overlay(cell, button.value);
    span.dataset.pending = "";
    cell.classList.add("pending");
    pendingTimer = setTimeout(clearPending, 8000);  // no answer (a lost socket): the resync redraws
  });
  // The answer to a move (board-events.js): a post from the move form, or this player's
  // answer over the room socket (not another player's news).
  document.addEventListener("board:answered", function (event) {
    if (event.detail.socket || (event.target.closest && event.target.closest("#move-form"))) clearPending();
  });

  // The refused digit stays in red for a moment (the stylesheet shakes the cell, or not
  // when the player asked for reduced motion), then fades.
  function showRefused(cell) {
    cell.dataset.wrongShown = "";
    const span = overlay(cell, cell.dataset.wrong);
    // The digits it clashes with (same row, column or box) are marked for a moment.
    const clashes = cells().filter(function (c) {
      return c !== cell && c.dataset.value === cell.dataset.wrong && (c.dataset.row === cell.dataset.row ||
        c.dataset.col === cell.dataset.col || c.dataset.box === cell.dataset.box);
    });
    for (const c of clashes) c.classList.add("clash");
    setTimeout(function () { for (const c of clashes) c.classList.remove("clash"); }, 1600);
    setTimeout(function () {
      const done = function () { span.remove(); for (const child of cell.children) child.style.visibility = ""; };
      if ((reducedMotion && reducedMotion.matches) || !span.animate) { done(); return; }
      span.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 200 }).onfinish = done;
    }, 700);
  }

  // A correct entry that completes its row, column or box lights that unit for a moment.
  // Computed here from the swapped cells (the page holds every placed digit; the answer
  // stays the cells that changed): the unit is done when none of its cells is empty.
  function lightUnits(cell) {
    cell.dataset.unitChecked = "";
    const all = cells();
    const lit = [];
    for (const key of ["row", "col", "box"]) {
      const unit = all.filter(function (c) { return c.dataset[key] === cell.dataset[key]; });
      if (unit.every(function (c) { return c.dataset.value; })) lit.push(...unit);
    }
    for (const c of lit) c.classList.add("unit-done");
    if (lit.length) setTimeout(function () { for (const c of lit) c.classList.remove("unit-done"); }, 1000);
  }

  // After a swap (a whole game, or a move's out-of-band cells and counters), keep the
  // selection and keyboard focus. Room pushes over the socket also come from other
  // players, so focus returns only if it was on this player's game.
  let settling = null;  // one answer settles several elements: run once for all of them
  function afterSwap(event) {
    if (settling) return;
    settling = event;
    queueMicrotask(function () { settling = null; settled(event); });
  }
  function settled(event) {
    if (typedAhead.length && !event.detail.socket) {
      queueMicrotask(pressTypedAhead);  // after the selection below is restored
    }
    showInput();
    for (const cell of document.querySelectorAll("[data-board] [data-wrong]:not([data-wrong-shown])")) showRefused(cell);
    for (const cell of document.querySelectorAll("[data-board] .fresh.entered:not([data-unit-checked])")) lightUnits(cell);
    const cell = selectedCell();
    const lost = document.activeElement === document.body || !document.activeElement;
    const refocus = lost && (!event.detail.socket || event.detail.focusWasInGame);
    // A board replaced by final results: focus moves to their next step, not to the page top
    // (nor to the finished board's last cell, which a Solo Run's finish keeps selected).
    const landing = document.querySelector("[data-focus-landing]");
    if (landing && (!board() || board().classList.contains("locked"))) {
      ensureTabStop();
      if (refocus) land(landing);
      return;
    }
    // The player's own last selection wins over the one an answer brings back: the answer
    // marks the cell its move was on, and a player who moved on while it travelled (an
    // arrow key on a slow connection) stays where they went. Also after a socket's redraw
    // (the race's first push can land just after GO, between a player's click and their
    // digit: the digit went to the default cell, a mistake), but never on a board that is
    // over (locked: it keeps no selection).
    const open = board() && !board().classList.contains("locked");
    const kept = lastSelected !== null && open && board().querySelector('[data-cell="' + lastSelected + '"]');
    if (kept || cell) { select(kept || cell, refocus); return; }
    ensureTabStop();
  }
  // A result that lands above the screen (a phone scrolled down to the pad) comes into view
  // with the game's bar above it: "Solved! 0:38" stayed above the fold. (The game, not the
  // result's panel: that one rises in, and aligned mid-rise its top ended above the screen.)
  function land(landing) {
    const game = landing.closest("#game");
    if (game && landing.getBoundingClientRect().top < 0) game.scrollIntoView({ block: "start" });
    landing.focus({ preventScroll: !!game });
  }
  document.addEventListener("board:swapped", afterSwap);

  // The clock shows the server's play time and ticks locally between updates.
  // The page's clocks count from when its response arrived (the server's seconds are as of
  // then), not from when this deferred script ran: on a busy phone that is a second later,
  // and every clock of the page would stand that far behind.
  const navigation = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  const loadedAt = navigation && navigation.responseStart > 0 ? navigation.responseStart : performance.now();
  function pad2(n) { return String(n).padStart(2, "0"); }
  function fmt(s) {
    s = Math.max(0, Math.floor(s));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h ? h + ":" + pad2(m) + ":" + pad2(sec) : m + ":" + pad2(sec);
  }
  // A wait of a day or more (a scheduled start): "2 days 13:28", in the page's words.
  function days(clock, s) {
    s = Math.floor(s);
    const n = Math.floor(s / 86400), rest = s % 86400;
    const words = (n === 1 ? clock.dataset.day : clock.dataset.days).replace("#", n);
    return words + " " + Math.floor(rest / 3600) + ":" + pad2(Math.floor((rest % 3600) / 60));
  }
  // Each clock counts from the moment its element arrived: a page load, an htmx swap or a
  // socket push (no afterSettle there). A clock without its own base would count from the
  // page load and show about double the time until the next swap.
  function stamp(root) {
    const now = performance.now();
    const found = root.matches && root.matches("[data-clock]") ? [root] : [];
    for (const clock of found.concat(Array.from(root.querySelectorAll ? root.querySelectorAll("[data-clock]") : []))) {
      if (!clock.dataset.base) clock.dataset.base = String(root === document ? loadedAt : now);
    }
  }
  new MutationObserver(function (records) {
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) stamp(node);
  }).observe(document.documentElement, { childList: true, subtree: true });
  stamp(document);
  // While a move is on its way the clock holds still: the server times the move when it
  // arrives, so a clock ticking on through the answer's trip would stand ahead of the
  // finish time and step back when the finish comes (held at most 5 s: a lost answer).
  let heldAt = 0;
  document.addEventListener("board:sending", function () { heldAt = performance.now(); });
  document.addEventListener("board:answered", function () { heldAt = 0; });
  setInterval(function () {
    if (heldAt && performance.now() - heldAt > 5000) heldAt = 0;
    for (const clock of document.querySelectorAll("[data-clock]")) {
      if (clock.dataset.running !== "1") continue;
      if (!clock.dataset.base) clock.dataset.base = String(performance.now());
      const base = Number(clock.dataset.base);
      const down = clock.dataset.countdown === "1";
      const now = heldAt && !down ? Math.max(base, heldAt) : performance.now();
      const value = Number(clock.dataset.elapsed) + (down ? -1 : 1) * (now - base) / 1000;
      clock.textContent = clock.dataset.days && value >= 86400 ? days(clock, value) : fmt(value);
    }
  }, 250);

  document.addEventListener("DOMContentLoaded", function () { highlight(selectedCell()); ensureTabStop(); showInput(); });
})();
