// Cardoku: drag and drop, taps and keys for the setup screen and the game.
// The server judges every move: this file only tells it which square was chosen
// (the same hidden form a tap submits) and arranges spades on the setup screen.
(function () {
  "use strict";

  // ------------------------------------------------------------------ pointer drag
  // Pointer events (mouse, pen, touch alike): a press on [data-drag] that moves more
  // than a few pixels becomes a drag; a press that does not stays a tap (a click).
  let drag = null;
  let suppressClick = false;  // the click the browser sends at the end of a drag

  function dropTargetAt(kind, x, y) {
    const el = document.elementFromPoint(x, y);
    if (!el) return null;
    if (kind === "current") return el.closest("#ck-board [data-drop]");
    return el.closest("[data-setup-square]") || el.closest("[data-tray]");
  }

  function markTarget(target) {
    if (drag.target === target) return;
    if (drag.target) drag.target.classList.remove("is-drop-target");
    drag.target = target;
    if (target) target.classList.add("is-drop-target");
  }

  function startGhost() {
    const rect = drag.src.getBoundingClientRect();
    const ghost = drag.src.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.classList.add("ck-ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = rect.width + "px";
    ghost.style.height = rect.height + "px";
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    drag.src.classList.add("is-dragging");
  }

  function endDrag() {
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    if (drag.target) drag.target.classList.remove("is-drop-target");
    drag.src.classList.remove("is-dragging");
    drag = null;
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.button !== 0 || !event.isPrimary) return;
    const src = event.target.closest("[data-drag]");
    if (!src || busy) return;
    drag = { src: src, kind: src.dataset.drag, x: event.clientX, y: event.clientY, ghost: null, target: null,
             id: event.pointerId };
  });

  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      startGhost();
      if (drag.kind === "spade") setup.release();
    }
    event.preventDefault();
    drag.ghost.style.left = event.clientX + "px";
    drag.ghost.style.top = event.clientY + "px";
    markTarget(dropTargetAt(drag.kind, event.clientX, event.clientY));
  });

  document.addEventListener("pointerup", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) { drag = null; return; }  // a tap: the click handler takes it
    const kind = drag.kind, src = drag.src;
    const target = dropTargetAt(kind, event.clientX, event.clientY);
    endDrag();
    // The click that follows this pointerup (same input task) is part of the drag.
    suppressClick = true;
    setTimeout(function () { suppressClick = false; }, 0);
    if (!target) return;
    if (kind === "current") place(target);
    else if (kind === "spade") {
      const digit = src.dataset.spade;
      if (target.hasAttribute("data-tray")) setup.toTray(digit);
      else setup.put(digit, target);
    }
  });

  document.addEventListener("pointercancel", endDrag);

  // ------------------------------------------------------------------ the game
  let busy = false;
  let restore = null;  // what to focus after the game partial is swapped in

  function board() { return document.getElementById("ck-board"); }
  function square(row, col) {
    const b = board();
    return b && b.querySelector('[data-row="' + row + '"][data-col="' + col + '"]');
  }

  function rove(sq) {
    const b = board();
    if (!b || !sq) return;
    for (const other of b.querySelectorAll('[role="gridcell"]')) other.tabIndex = other === sq ? 0 : -1;
  }

  function focusSquare(sq) { if (sq) { rove(sq); sq.focus(); } }

  // A tap while the last move is still on its way is not dropped: it waits for that
  // answer (the next card and the new step) and is sent then; the server judges it.
  let queued = null;
  let busySince = 0;
  const LOST_MS = 8000;  // no answer by then (a lost socket): taps go out again, the resync redraws
  function place(sq, again) {
    const form = document.getElementById("ck-place");
    if (!form || !sq) return;
    // Queued before the legal-square check: the squares marked are the current card's, and
    // a fast second tap is meant for the next card (a square only that card fits was dropped).
    // It is meant for the board after the move on its way: it carries that board's version,
    // so a push that is not this move's answer (it releases the tap early) cannot make it stale.
    if (busy && performance.now() - busySince < LOST_MS) {
      queued = { row: sq.dataset.row, col: sq.dataset.col, step: shownStep() + 1 };
      return;
    }
    if (!again && !sq.hasAttribute("data-drop")) return;
    form.querySelector("[data-place-row]").value = sq.dataset.row;
    form.querySelector("[data-place-col]").value = sq.dataset.col;
    const stepField = document.getElementById("ck-place-step");
    if (again && again.step !== undefined && stepField && Number(stepField.value) < again.step) stepField.value = again.step;
    restore = { row: sq.dataset.row, col: sq.dataset.col };
    // Busy from here, not from board:sending: a second tap in between (a loaded page) rewrote
    // this form's square before the first had left, and one of the two was lost.
    busy = true;
    busySince = performance.now();
    form.requestSubmit();
  }

  function shownStep() {
    const field = document.getElementById("ck-place-step");
    return field ? Number(field.value) || 0 : 0;
  }

  function press(selector) {
    const button = document.querySelector(selector);
    if (button && !button.disabled) { rememberFocus(button); button.click(); }
  }

  function rememberFocus(el) {
    if (!el) { restore = null; return; }
    const sq = el.closest && el.closest("#ck-board [data-row]");
    if (sq) restore = { row: sq.dataset.row, col: sq.dataset.col };
    else if (el.dataset && el.dataset.key) restore = { key: el.dataset.key };
    else restore = null;
  }

  // A move's answer swaps only the squares that changed, with this move's marks: the
  // last move's marks go when the next one is sent. The board:* events come from
  // board-events.js, for an htmx post (solo) and a message over the room socket (duel) alike.
  const MARKS = ["is-fresh", "is-flash", "is-tried", "is-hit"];
  let tabStop = null;  // the board's tab stop when a move was sent
  document.addEventListener("board:sending", function (event) {
    if (event.target.closest && event.target.closest("#ck-game")) {
      busy = true;
      busySince = performance.now();
      if (!restore) rememberFocus(document.activeElement);
      const b = board();
      if (b) for (const sq of b.querySelectorAll("." + MARKS.join(", ."))) sq.classList.remove(...MARKS);
      const stop = b && b.querySelector('[role="gridcell"][tabindex="0"]');
      tabStop = stop ? { row: stop.dataset.row, col: stop.dataset.col } : null;
    }
  });
  document.addEventListener("board:answered", function () {
    busy = false;
    if (!queued) return;
    const next = queued;
    queued = null;
    // After this input task: the answer's swap settles first, then the tap goes out.
    setTimeout(function () { place(square(next.row, next.col), next); }, 0);
  });
  document.addEventListener("board:swapped", function (event) {
    if (!event.target || event.target.id !== "ck-game") return;
    const message = document.getElementById("ck-message"), live = document.getElementById("ck-announce");
    if (message && live) live.textContent = message.textContent;
    const step = document.getElementById("ck-place-step");
    if (step) event.target.dataset.step = step.value;  // the version the page now shows
    // Swapped squares come with the page's default tab stop: the board keeps its own one.
    if (tabStop) rove(square(tabStop.row, tabStop.col));
    tabStop = null;
    if (!restore) return;
    let el = null;
    if (restore.key) el = document.querySelector('#ck-game [data-key="' + restore.key + '"]');
    if (restore.row) el = square(restore.row, restore.col);
    if (el && el.disabled) el = null;
    if (!el && restore.key) el = document.querySelector("#ck-board .is-fresh") || square(5, 5);
    restore = null;
    if (!el) return;
    if (el.matches('[role="gridcell"]')) focusSquare(el); else el.focus();
  });

  // ------------------------------------------------------------------ the setup editor
  const setup = {
    held: null,
    form: function () { return document.getElementById("ck-setup"); },
    tray: function () { const f = setup.form(); return f && f.querySelector("[data-tray]"); },
    spade: function (d) { return setup.form().querySelector('.ck-spade[data-spade="' + d + '"]'); },
    field: function (d) { return setup.form().querySelector('[data-spade-field="' + d + '"]'); },
    squareAt: function (row, col) {
      return setup.form().querySelector('[data-setup-square][data-row="' + row + '"][data-col="' + col + '"]');
    },
    status: function (text) {
      const el = document.getElementById("ck-layout-status");
      if (el) el.textContent = text;
    },
    pick: function (d) {
      setup.release();
      setup.held = String(d);
      const el = setup.spade(d);
      el.setAttribute("aria-pressed", "true");
      // The page's words, in its language: "{spade}" is the spade's name.
      setup.status(setup.form().dataset.pickedUp.replace("{spade}", el.getAttribute("aria-label")));
    },
    release: function () {
      if (!setup.held) return;
      const el = setup.spade(setup.held);
      if (el) el.setAttribute("aria-pressed", "false");
      setup.held = null;
    },
    // Put spade `d` on square `sq`; a spade already there swaps to where `d` was.
    put: function (d, sq) {
      const el = setup.spade(d);
      const from = el.closest("[data-setup-square]");
      if (from === sq) { setup.release(); return; }
      const other = sq.querySelector(".ck-spade");
      if (other) {
        if (from) from.appendChild(other); else setup.toTray(other.dataset.spade, true);
        setup.field(other.dataset.spade).value = from ? from.dataset.row + "," + from.dataset.col : "";
      }
      sq.appendChild(el);
      el.tabIndex = -1;
      setup.field(d).value = sq.dataset.row + "," + sq.dataset.col;
      setup.changed();
    },
    toTray: function (d, quiet) {
      const tray = setup.tray(), el = setup.spade(d);
      let before = tray.querySelector(".ck-tray-empty");
      for (const s of tray.querySelectorAll(".ck-spade")) {
        if (Number(s.dataset.spade) > Number(d)) { before = s; break; }
      }
      tray.insertBefore(el, before);
      el.tabIndex = 0;
      setup.field(d).value = "";
      if (!quiet) setup.changed();
    },
    changed: function () {
      setup.release();
      for (const sq of setup.form().querySelectorAll("[data-setup-square]")) {
        const s = sq.querySelector(".ck-spade");
        sq.setAttribute("aria-label", setup.form().dataset.square.replace("{row}", sq.dataset.row)
          .replace("{col}", sq.dataset.col) + (s ? ", " + s.getAttribute("aria-label") : ""));
      }
      if (window.htmx) window.htmx.trigger(setup.form(), "ck-layout-change");
    },
    fill: function () {
      for (let d = 1; d <= 9; d++) setup.toTray(d, true);
      for (const part of (setup.form().dataset.staircase || "").split(";")) {
        const [d, sq] = part.split(":"), [row, col] = sq.split(",");
        const target = setup.squareAt(row, col);
        target.appendChild(setup.spade(d));
        setup.spade(d).tabIndex = -1;
        setup.field(d).value = row + "," + col;
      }
      setup.changed();
    },
    clear: function () {
      for (let d = 1; d <= 9; d++) setup.toTray(d, true);
      setup.changed();
    },
    showCustom: function () {
      const editor = document.querySelector("[data-custom-editor]");
      const custom = document.querySelector('[data-layout-choice][value="custom"]');
      if (editor && custom) editor.hidden = !custom.checked;
    },
    gridSquares: function () { return Array.from(setup.form().querySelectorAll("[data-setup-square]")); },
    roveTo: function (sq) {
      for (const other of setup.gridSquares()) other.tabIndex = other === sq ? 0 : -1;
      sq.focus();
    },
  };

  // ------------------------------------------------------------------ clicks
  document.addEventListener("click", function (event) {
    if (suppressClick) { suppressClick = false; event.preventDefault(); event.stopPropagation(); return; }
    const sq = event.target.closest("#ck-board [data-row]");
    if (sq) {
      rove(sq);
      place(sq);  // a legal square, or a tap queued while the last move is on its way
      return;
    }
    const form = setup.form();
    if (!form || !form.contains(event.target)) return;
    if (event.target.closest("[data-setup-fill]")) { setup.fill(); return; }
    if (event.target.closest("[data-setup-clear]")) { setup.clear(); return; }
    const spade = event.target.closest(".ck-spade");
    const target = event.target.closest("[data-setup-square]");
    if (spade) {
      const d = spade.dataset.spade;
      const onBoard = spade.closest("[data-setup-square]");
      if (setup.held === d) setup.release();
      else if (setup.held && onBoard) setup.put(setup.held, onBoard);
      else {
        setup.pick(d);
        // Keyboard users go straight on to the squares.
        if (event.detail === 0 && !onBoard) setup.roveTo(setup.gridSquares().find((s) => s.tabIndex === 0) || setup.gridSquares()[0]);
      }
      return;
    }
    if (target) {
      setup.roveTo(target);
      if (setup.held) setup.put(setup.held, target);
      return;
    }
    if (event.target.closest("[data-tray]") && setup.held) setup.toTray(setup.held);
  }, true);

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("[data-layout-choice]")) setup.showCustom();
  });

  // ------------------------------------------------------------------ keys
  const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;

    // Setup grid: arrows move, Enter/Space drops or picks up, Delete sends back.
    const ssq = event.target.closest && event.target.closest("[data-setup-square]");
    if (ssq) {
      if (ARROWS[event.key]) {
        event.preventDefault();
        const [dr, dc] = ARROWS[event.key];
        const row = Math.min(9, Math.max(7, Number(ssq.dataset.row) + dr));
        const col = Math.min(9, Math.max(1, Number(ssq.dataset.col) + dc));
        setup.roveTo(setup.squareAt(row, col));
        return;
      }
      const here = ssq.querySelector(".ck-spade");
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        if (setup.held) setup.put(setup.held, ssq);
        else if (here) setup.pick(here.dataset.spade);
        return;
      }
      if ((event.key === "Delete" || event.key === "Backspace") && here) {
        event.preventDefault();
        setup.toTray(here.dataset.spade);
        return;
      }
    }
    if (event.key === "Escape" && setup.held) { setup.release(); setup.changed(); return; }

    // Game board.
    const b = board();
    if (!b) return;
    const sq = event.target.closest && event.target.closest("#ck-board [data-row]");
    if (sq && ARROWS[event.key]) {
      event.preventDefault();
      const [dr, dc] = ARROWS[event.key];
      focusSquare(square(Math.min(9, Math.max(1, Number(sq.dataset.row) + dr)),
                         Math.min(9, Math.max(1, Number(sq.dataset.col) + dc))));
      return;
    }
    if (sq && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      place(sq);
      return;
    }
    if (tag === "button" && (event.key === "Enter" || event.key === " ")) return;
    const key = event.key.toLowerCase();
    if (key === "d") press('#ck-game [data-key="d"]');
    else if (key === "u") press('#ck-game [data-key="u"]');
    else if (key === "m") press('#ck-game [data-key="m"]');
    else if (key === "r") press('#ck-game [data-key="r"]');
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (setup.form()) setup.showCustom();
  });
})();
