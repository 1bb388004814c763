// A replay (docs/rules.md 10): every board fills in at the tempo the server recorded. The
// events come once with the page (#replay-data, replays/tracks.py): [ms, cell, value, mark].
// A board at time t is its events up to t played again from the start position, so play,
// pause, the timeline and the steps are all the same one drawing.
(function () {
  "use strict";
  const root = document.querySelector("[data-replay]");
  const source = document.getElementById("replay-data");
  if (!root || !source) return;
  const data = JSON.parse(source.textContent);
  const WRONG_MS = 1500;  // a wrong digit shows this long (race time), then the cell is empty again
  const lanes = Array.from(root.querySelectorAll("[data-lane]"));
  const timeline = root.querySelector("[data-timeline]");
  const playButton = root.querySelector("[data-play]");
  const clock = root.querySelector("[data-replay-time]");
  const said = root.querySelector("[data-replay-said]");
  const standings = root.querySelector("[data-replay-standings]");
  const times = Array.from(new Set(data.lanes.flatMap(function (lane) {
    return lane.events.map(function (e) { return e[0]; });
  }))).sort(function (a, b) { return a - b; });

  const PEERS = [];
  for (let i = 0; i < 81; i++) {
    const r = Math.floor(i / 9), c = i % 9, b = Math.floor(r / 3) * 3 + Math.floor(c / 3);
    PEERS.push([]);
    for (let j = 0; j < 81; j++) {
      const r2 = Math.floor(j / 9), c2 = j % 9, b2 = Math.floor(r2 / 3) * 3 + Math.floor(c2 / 3);
      if (j !== i && (r2 === r || c2 === c || b2 === b)) PEERS[i].push(j);
    }
  }

  function pad2(n) { return String(n).padStart(2, "0"); }
  function fmt(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + pad2(s % 60);
  }

  // One lane's board at time t.
  function boardAt(lane, t) {
    const cells = Array.from(data.givens, Number), notes = new Array(81).fill(0), kinds = new Array(81).fill("");
    let wrong = null, submission = null, last = null;
    for (const e of lane.events) {
      const [ms, cell, value, mark] = e;
      if (ms > t) break;
      last = e;
      wrong = null;  // a wrong digit shows until the player's next move (or WRONG_MS)
      if (mark === "c" || mark === "h" || mark === "e") {
        cells[cell] = value; notes[cell] = 0; kinds[cell] = mark;
        if (mark !== "e") for (const peer of PEERS[cell]) notes[peer] &= ~(1 << value);
      } else if (mark === "x") {
        cells[cell] = 0; kinds[cell] = "";
      } else if (mark === "n") {
        notes[cell] = value;
      } else if (mark === "w") {
        wrong = e;
      } else if (mark === "s") {
        submission = e;
      }
    }
    if (wrong && t - wrong[0] >= WRONG_MS) wrong = null;
    let progress = 0;
    for (let i = 0; i < 81; i++) if (data.givens[i] === "0" && cells[i]) progress++;
    return { cells, notes, kinds, wrong, submission, last, progress };
  }

  function drawCell(el, digit, mask, kind, given, wrong) {
    const key = [digit, mask, kind, wrong].join("/");
    if (el.dataset.drawn === key) return;
    el.dataset.drawn = key;
    el.classList.toggle("entered", !given && kind === "c" || kind === "e");
    el.classList.toggle("hinted", kind === "h");
    el.classList.toggle("wrong", !!wrong);
    if (wrong) {
      el.innerHTML = '<span class="value">' + wrong + "</span>";
    } else if (digit) {
      el.innerHTML = '<span class="value">' + digit + "</span>";
    } else if (mask) {
      let html = '<span class="notes">';
      for (let d = 1; d <= 9; d++) html += "<span>" + (mask & (1 << d) ? d : "") + "</span> ";
      el.innerHTML = html + "</span>";
    } else {
      el.innerHTML = '<span class="value"></span>';
    }
  }

  let t = 0, playing = false, speed = 4, frameAt = 0;

  function draw() {
    const now = data.lanes.map(function (lane, n) {
      const state = boardAt(lane, t);
      const el = lanes[n];
      const cells = el.querySelectorAll("[data-cell]");
      for (let i = 0; i < 81; i++) {
        const given = data.givens[i] !== "0";
        const wrong = state.wrong && state.wrong[1] === i ? state.wrong[2] : 0;
        drawCell(cells[i], state.cells[i], state.notes[i], state.kinds[i], given, wrong);
      }
      el.querySelector("[data-lane-progress]").textContent = state.progress;
      el.classList.toggle("is-finished", lane.finish !== null && t >= lane.finish);
      return { n, lane, state, finished: lane.finish !== null && t >= lane.finish };
    });
    clock.textContent = fmt(t);
    timeline.value = String(Math.round(t));
    if (standings) {
      now.sort(function (a, b) {
        if (a.finished !== b.finished) return a.finished ? -1 : 1;
        if (a.finished) return a.lane.finish - b.lane.finish;
        return b.state.progress - a.state.progress || a.n - b.n;
      });
      now.forEach(function (row, place) {
        const li = standings.querySelector('[data-standing="' + row.n + '"]');
        li.querySelector(".place").textContent = place + 1;
        li.querySelector("[data-standing-line]").textContent = row.finished
          ? root.dataset.finished.replace("#", fmt(row.lane.finish))
          : row.state.progress + " / " + root.dataset.toFill;
        standings.appendChild(li);
      });
    }
    return now;
  }

  function setPlaying(on) {
    playing = on;
    playButton.textContent = on ? playButton.dataset.pauseLabel : playButton.dataset.playLabel;
    playButton.setAttribute("aria-pressed", on ? "true" : "false");
    if (on) { frameAt = performance.now(); requestAnimationFrame(tick); }
  }

  function tick(at) {
    if (!playing) return;
    t = Math.min(data.length, t + (at - frameAt) * speed);
    frameAt = at;
    draw();
    if (t >= data.length) { setPlaying(false); return; }
    requestAnimationFrame(tick);
  }

  function step(direction) {
    setPlaying(false);
    const next = direction > 0
      ? times.find(function (ms) { return ms > t; })
      : times.slice().reverse().find(function (ms) { return ms < t; });
    t = next === undefined ? (direction > 0 ? data.length : 0) : next;
    const now = draw();
    // What happened at this step, for a screen reader (the boards themselves are hidden from it).
    const words = now.filter(function (row) { return row.state.last && row.state.last[0] === t; }).map(function (row) {
      const [, cell, value, mark] = row.state.last;
      const where = root.dataset.cell.replace("#r", Math.floor(cell / 9) + 1).replace("#c", (cell % 9) + 1);
      return row.lane.name + ": " + (root.dataset["mark" + mark.toUpperCase()] || "").replace("#d", value) + (cell >= 0 ? " " + where : "");
    });
    said.textContent = words.join(". ");
  }

  playButton.addEventListener("click", function () {
    if (!playing && t >= data.length) t = 0;
    setPlaying(!playing);
  });
  root.querySelectorAll("[data-step]").forEach(function (button) {
    button.addEventListener("click", function () { step(Number(button.dataset.step)); });
  });
  root.querySelectorAll("input[name=speed]").forEach(function (radio) {
    if (radio.checked) speed = Number(radio.value);
    radio.addEventListener("change", function () { speed = Number(radio.value); });
  });
  timeline.addEventListener("input", function () { t = Number(timeline.value); draw(); });
  root.addEventListener("keydown", function (event) {
    if (event.target.matches("input[type=range], input[type=radio]")) return;
    if (event.key === "ArrowRight") { step(1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { step(-1); event.preventDefault(); }
  });
  // On a phone one board shows at a time: the tabs pick it.
  root.querySelectorAll("[data-tab]").forEach(function (tab) {
    tab.addEventListener("click", function () {
      root.querySelectorAll("[data-tab]").forEach(function (other) { other.setAttribute("aria-selected", other === tab ? "true" : "false"); });
      lanes.forEach(function (lane, n) { lane.classList.toggle("active", String(n) === tab.dataset.tab); });
    });
  });
  draw();
})();
