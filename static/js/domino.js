// Sudoku Domino page: keyboard choice of entry markers, the landing preview, joker cell
// picking, and the countdown. The server judges every move and owns the clock; this file
// only moves focus, draws hints and presses the same buttons a pointer would.
(function () {
  "use strict";

  const ARROWS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"];
  let remembered = null;      // {edge, line} of the marker the player last used
  let restore = null;         // what to focus again after the next swap
  let clockBase = performance.now();

  function game() { return document.getElementById("game"); }
  function markers() { return Array.from(document.querySelectorAll("#game [data-marker]")); }
  function picks() { return Array.from(document.querySelectorAll("#game [data-pick]")); }
  function gridcells() { return Array.from(document.querySelectorAll("#game [data-domino-board] [role=gridcell]")); }
  function cellAt(row, col) { return document.querySelector('#game [data-domino-board] [data-row="' + row + '"][data-col="' + col + '"]'); }

  // Position of a marker on an 11 x 11 frame round the board (the board is 1..9).
  function pos(m) {
    const line = Number(m.dataset.line);
    switch (m.dataset.edge) {
      case "top": return { x: line, y: 0 };
      case "bottom": return { x: line, y: 10 };
      case "left": return { x: 0, y: line };
      default: return { x: 10, y: line };
    }
  }

  // ---------------------------------------------------------------- landing preview
  function clearPreview() {
    for (const c of document.querySelectorAll("#game .d-cell.path, #game .d-cell.landing")) {
      c.classList.remove("path", "landing");
      delete c.dataset.ghost;
    }
    for (const m of document.querySelectorAll("#game .marker.active")) m.classList.remove("active");
  }

  function preview(m) {
    clearPreview();
    if (!m) return;
    m.classList.add("active");
    const row = Number(m.dataset.landRow), col = Number(m.dataset.landCol), line = Number(m.dataset.line);
    const cells = [];
    if (m.dataset.edge === "left") for (let c = 1; c <= col; c++) cells.push([line, c]);
    if (m.dataset.edge === "right") for (let c = 9; c >= col; c--) cells.push([line, c]);
    if (m.dataset.edge === "top") for (let r = 1; r <= row; r++) cells.push([r, line]);
    if (m.dataset.edge === "bottom") for (let r = 9; r >= row; r--) cells.push([r, line]);
    for (const [r, c] of cells) { const el = cellAt(r, c); if (el) el.classList.add("path"); }
    const land = cellAt(row, col);
    const g = game();
    if (land) { land.classList.add("landing"); land.dataset.ghost = g ? g.dataset.current || "" : ""; }
  }

  // ---------------------------------------------------------------- roving focus: markers
  function setActive(m, focus) {
    const all = markers();
    for (const x of all) x.tabIndex = x === m ? 0 : -1;
    if (!m) return;
    remembered = { edge: m.dataset.edge, line: Number(m.dataset.line) };
    if (focus) m.focus();
  }

  function nearest(list, key) {
    let best = null, bestKey = Infinity;
    for (const m of list) { const k = key(m); if (k < bestKey) { best = m; bestKey = k; } }
    return best;
  }

  function findMarker(edge, line) {
    return markers().find(function (m) { return m.dataset.edge === edge && Number(m.dataset.line) === line; });
  }

  // Arrow keys: along the edge (round the corners at its ends); the arrow towards the
  // opposite edge jumps across to the nearest marker there.
  function step(m, key) {
    const all = markers(), here = pos(m), edge = m.dataset.edge;
    const on = function (e) { return all.filter(function (x) { return x.dataset.edge === e; }); };
    const horizontal = edge === "top" || edge === "bottom";
    if (horizontal && (key === "ArrowLeft" || key === "ArrowRight")) {
      const dir = key === "ArrowRight" ? 1 : -1;
      const along = on(edge).filter(function (x) { return (pos(x).x - here.x) * dir > 0; });
      if (along.length) return nearest(along, function (x) { return Math.abs(pos(x).x - here.x); });
      const side = on(dir > 0 ? "right" : "left");
      return nearest(side, function (x) { return edge === "top" ? pos(x).y : 10 - pos(x).y; });
    }
    if (!horizontal && (key === "ArrowUp" || key === "ArrowDown")) {
      const dir = key === "ArrowDown" ? 1 : -1;
      const along = on(edge).filter(function (x) { return (pos(x).y - here.y) * dir > 0; });
      if (along.length) return nearest(along, function (x) { return Math.abs(pos(x).y - here.y); });
      const side = on(dir > 0 ? "bottom" : "top");
      return nearest(side, function (x) { return edge === "left" ? pos(x).x : 10 - pos(x).x; });
    }
    const across = { ArrowDown: "bottom", ArrowUp: "top", ArrowLeft: "left", ArrowRight: "right" }[key];
    if (across === edge) return null;
    const target = on(across);
    if (horizontal) return nearest(target, function (x) { return Math.abs(pos(x).x - here.x); });
    return nearest(target, function (x) { return Math.abs(pos(x).y - here.y); });
  }

  // ---------------------------------------------------------------- roving focus: joker cells
  function setActivePick(p, focus) {
    for (const x of picks()) x.tabIndex = x === p ? 0 : -1;
    if (p && focus) p.focus();
  }

  function pickPos(p) { const c = p.closest("[data-row]"); return { r: Number(c.dataset.row), c: Number(c.dataset.col) }; }

  function stepPick(p, key) {
    const here = pickPos(p);
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
    const ahead = picks().filter(function (x) {
      const q = pickPos(x);
      return (q.r - here.r) * d[0] + (q.c - here.c) * d[1] > 0;
    });
    // Prefer the same line, then the closest across.
    return nearest(ahead, function (x) {
      const q = pickPos(x);
      const along = Math.abs((q.r - here.r) * d[0] + (q.c - here.c) * d[1]);
      const side = Math.abs((q.r - here.r) * d[1] + (q.c - here.c) * d[0]);
      return side * 20 + along;
    });
  }

  // ---------------------------------------------------------------- setup after each render
  function init() {
    const all = markers();
    let active = remembered && findMarker(remembered.edge, remembered.line);
    if (!active && remembered && all.length) {
      const ref = pos({ dataset: { edge: remembered.edge, line: String(remembered.line) } });
      active = nearest(all, function (m) { const p = pos(m); return Math.abs(p.x - ref.x) + Math.abs(p.y - ref.y); });
    }
    if (!active) active = all[0] || null;
    for (const x of all) x.tabIndex = x === active ? 0 : -1;
    const ps = picks();
    for (const x of ps) x.tabIndex = -1;
    if (ps.length) ps[Math.floor(ps.length / 2)].tabIndex = 0;
    // Outside joker mode the board itself is one Tab stop; arrows read it cell by cell.
    const gc = gridcells();
    for (const c of gc) { if (ps.length) c.removeAttribute("tabindex"); else c.tabIndex = -1; }
    if (!ps.length && gc.length) gc[0].tabIndex = 0;

    if (restore === "pick" && ps.length) {
      ps.find(function (x) { return x.tabIndex === 0; }).focus();
    } else if (restore && active) {
      active.focus();
      preview(active);
    }
    restore = null;
    clockBase = performance.now();
    tick();
  }

  // ---------------------------------------------------------------- countdown
  function fmt(s) {
    s = Math.max(0, Math.floor(s));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    for (const clock of document.querySelectorAll("#game [data-countdown]")) {
      if (clock.dataset.running !== "1") continue;
      const left = Number(clock.dataset.secondsLeft) - (performance.now() - clockBase) / 1000;
      clock.textContent = fmt(left);
      const box = clock.closest(".hud-clock");
      if (box) box.classList.toggle("is-low", left < 60);
    }
  }
  setInterval(tick, 250);

  // ---------------------------------------------------------------- events
  document.addEventListener("focusin", function (event) {
    const m = event.target.closest && event.target.closest("#game [data-marker]");
    if (m) { setActive(m, false); preview(m); }
    const p = event.target.closest && event.target.closest("#game [data-pick]");
    if (p) setActivePick(p, false);
  });
  document.addEventListener("focusout", function (event) {
    if (event.target.closest && event.target.closest("#game [data-marker]")) clearPreview();
  });
  document.addEventListener("mouseover", function (event) {
    const m = event.target.closest && event.target.closest("#game [data-marker]");
    if (m) preview(m);
  });
  document.addEventListener("mouseout", function (event) {
    const m = event.target.closest && event.target.closest("#game [data-marker]");
    if (m && !m.contains(event.relatedTarget)) {
      const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-marker]");
      if (focused) preview(focused); else clearPreview();
    }
  });
  document.addEventListener("click", function (event) {
    const m = event.target.closest && event.target.closest("#game [data-marker]");
    if (m) remembered = { edge: m.dataset.edge, line: Number(m.dataset.line) };
  });

  document.addEventListener("keydown", function (event) {
    if (!game() || event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const onMarker = event.target.closest && event.target.closest("#game [data-marker]");
    const onPick = event.target.closest && event.target.closest("#game [data-pick]");
    const onCell = !onPick && event.target.matches && event.target.matches("#game [role=gridcell]");
    if (ARROWS.includes(event.key) && onCell) {
      event.preventDefault();
      const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
      const r = Math.min(9, Math.max(1, Number(event.target.dataset.row) + d[0]));
      const c = Math.min(9, Math.max(1, Number(event.target.dataset.col) + d[1]));
      const next = cellAt(r, c);
      if (next) { for (const x of gridcells()) x.tabIndex = x === next ? 0 : -1; next.focus(); }
      return;
    }
    if (ARROWS.includes(event.key)) {
      if (onMarker) {
        event.preventDefault();
        const next = step(onMarker, event.key);
        if (next) { setActive(next, true); preview(next); }
      } else if (onPick) {
        event.preventDefault();
        const next = stepPick(onPick, event.key);
        if (next) setActivePick(next, true);
      } else if (event.target === document.body || event.target === document.documentElement || !event.target.closest("button, a, form")) {
        const entry = picks().find(function (x) { return x.tabIndex === 0; }) || markers().find(function (x) { return x.tabIndex === 0; });
        if (entry) { event.preventDefault(); entry.focus(); }
      }
      return;
    }
    if (event.key === "Home" || event.key === "End") {
      const list = onMarker ? markers() : onPick ? picks() : null;
      if (list && list.length) {
        event.preventDefault();
        const target = event.key === "Home" ? list[0] : list[list.length - 1];
        if (onMarker) { setActive(target, true); preview(target); } else setActivePick(target, true);
      }
      return;
    }
    if (event.key === "Escape") {
      const cancel = document.querySelector("#game [data-cancel-joker]");
      if (cancel) { event.preventDefault(); restore = "marker"; cancel.click(); }
      return;
    }
    const key = event.key.toLowerCase();
    const kind = key === "g" ? "grey" : key === "j" ? "gold" : null;
    if (kind) {
      const button = document.querySelector('#game [data-joker="' + kind + '"]');
      if (button && !button.disabled) { event.preventDefault(); restore = "pick"; button.click(); }
    }
  });

  // A move's answer swaps only what changed, with this move's marks (a landing, a refused
  // stone, a completed unit): the last move's marks go when the next one is sent.
  function clearMarks() {
    const g = game();
    if (!g) return;
    for (const el of g.querySelectorAll(".stone.wrong-stone, .gain")) el.remove();
    for (const el of g.querySelectorAll(".d-cell.scored, .d-cell.clash")) el.classList.remove("scored", "clash");
    for (const el of g.querySelectorAll(".stone.fresh, .stone.slide")) el.classList.remove("fresh", "slide", "dropped");
    for (const el of g.querySelectorAll(".heart.just-lost")) el.classList.remove("just-lost");
  }

  // Remember where focus was, so a swap does not throw keyboard players back to the top.
  // (The board:* events come from board-events.js, for an htmx request and a socket message alike.)
  document.addEventListener("board:sending", function () {
    const el = document.activeElement;
    if (el && el.closest) {
      if (el.closest("#game [data-pick]")) restore = restore || "pick";
      else if (el.closest("#game [data-marker]")) restore = restore || "marker";
    }
    clearMarks();
  });
  // One answer settles several elements: set the game up once for all of them.
  let settling = false;
  document.addEventListener("board:swapped", function () {
    if (settling || !game()) return;
    settling = true;
    queueMicrotask(function () {
      settling = false;
      const g = game(), version = document.getElementById("dm-version"), stone = g && g.querySelector("[data-current-stone]");
      if (g && version) g.dataset.version = version.value;  // what the page now shows
      if (g && stone) g.dataset.current = stone.textContent;
      init();
    });
  });
  // ---------------------------------------------------------------- a phone: tap the line
  // Nine markers along a phone's edge are ~27 px wide, under the 44 px a finger needs (WCAG
  // 2.5.8, Apple's HIG). On a touch screen a tap on a board cell offers the entry points of
  // its row and column as big buttons (each previews where the stone stops); a button
  // presses its marker. The words come from the page (the markers' labels, data-lines-*).
  const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  function closePicker() {
    const open = document.getElementById("dm-line-picker");
    if (open) { open.remove(); clearPreview(); }
  }
  function openPicker(cell) {
    closePicker();
    const board = cell.closest("[data-domino-board]");
    const row = Number(cell.dataset.row), col = Number(cell.dataset.col);
    const choices = [findMarker("left", row), findMarker("right", row), findMarker("top", col), findMarker("bottom", col)]
      .filter(Boolean);
    const box = document.createElement("div");
    box.id = "dm-line-picker";
    box.className = "line-picker";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", board.dataset.linesLabel || "");
    if (!choices.length) {
      const none = document.createElement("p");
      none.textContent = board.dataset.linesNone || "";
      box.appendChild(none);
    }
    for (const m of choices) {
      const choice = document.createElement("button");
      choice.type = "button";
      choice.className = "button line-choice";
      const label = m.getAttribute("aria-label");
      choice.setAttribute("aria-label", label);
      choice.textContent = m.textContent.trim() + " " + label.replace(/\s*\(.*\)\s*$/, "");  // where it stops: the preview shows it
      choice.addEventListener("focus", function () { preview(m); });
      choice.addEventListener("pointerenter", function () { preview(m); });
      choice.addEventListener("click", function () { closePicker(); m.click(); });
      box.appendChild(choice);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button line-cancel";
    cancel.textContent = board.dataset.linesCancel || "×";
    cancel.addEventListener("click", closePicker);
    box.appendChild(cancel);
    // In <main> (a landmark), not in #game: over everything (the board's cells make their own layers).
    (document.querySelector("main") || document.body).appendChild(box);
    if (choices.length === 1) preview(choices[0]);
    (box.querySelector(".line-choice") || cancel).focus();
  }
  document.addEventListener("click", function (event) {
    if (!coarse || !event.target.closest) return;
    const cell = event.target.closest("#game [data-domino-board] [role=gridcell]");
    if (!cell || cell.closest(".joker-mode, .locked") || event.target.closest("[data-pick]")) return;
    if (!markers().length) return;  // a finished game, or a duel not running
    openPicker(cell);
  });
  document.addEventListener("board:sending", closePicker);
  document.addEventListener("board:swapped", function () { if (!markers().length) closePicker(); });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
