// Ghost lanes (docs/rules.md 10): a recorded run played beside the player's own, on the
// page's clock (a Solo Run's play time, a race's time). The lane shows which cells the
// ghost had filled at that moment, its count, and a toast when it finishes.
(function () {
  "use strict";
  const done = new Set();

  function pad2(n) { return String(n).padStart(2, "0"); }
  function fmt(ms) { const s = Math.floor(ms / 1000); return Math.floor(s / 60) + ":" + pad2(s % 60); }
  // The page's clock as static/js/board.js runs it: the server's seconds when the element
  // arrived, plus the time since while it runs.
  // Once the player has finished, the ghosts race on in real time to their own finish (as
  // rivals in a room do); a paused run holds them.
  let stoppedAt = null;
  function seconds() {
    const clock = document.querySelector("[data-race-clock]") || document.querySelector("#game [data-clock]");
    if (!clock) return null;
    const elapsed = Number(clock.dataset.elapsed || 0);
    if (clock.dataset.running === "1") {
      stoppedAt = null;
      return elapsed + (performance.now() - Number(clock.dataset.base || performance.now())) / 1000;
    }
    if (!document.querySelector('#game[data-state="finished"], #room-body[data-state="finished"]')) return elapsed;
    if (stoppedAt === null) stoppedAt = performance.now();
    return elapsed + (performance.now() - stoppedAt) / 1000;
  }
  function toast(text, colour) {
    let box = document.getElementById("toasts");
    if (!box) {
      box = document.createElement("div");
      box.id = "toasts"; box.className = "toasts"; box.setAttribute("role", "log"); box.setAttribute("aria-live", "polite");
      document.body.appendChild(box);
    }
    const el = document.createElement("div");
    el.className = "toast " + colour;
    el.textContent = text;
    box.appendChild(el);
    setTimeout(function () { el.remove(); }, 5000);
  }

  function draw() {
    // Looked up each time: a room's push redraws the panel (the same lanes, drawn empty).
    // A room in its countdown has no lanes yet: the push at GO brings them.
    const section = document.getElementById("ghosts");
    const at = seconds();
    if (!section || at === null) return;
    const ghosts = JSON.parse(section.dataset.ghosts).ghosts;
    const t = at * 1000;
    ghosts.forEach(function (ghost, n) {
      const row = section.querySelector('[data-ghost="' + n + '"]');
      const filled = new Set();
      for (const [ms, cell, on] of ghost.line) {
        if (ms > t) break;
        if (on) filled.add(cell); else filled.delete(cell);
      }
      let path = "";
      filled.forEach(function (i) { path += "M" + (i % 9) + " " + Math.floor(i / 9) + "h1v1h-1z"; });
      row.querySelector("path.f").setAttribute("d", path);
      row.querySelector("progress").value = filled.size;
      const finished = ghost.finish !== null && t >= ghost.finish;
      row.classList.toggle("status-finished", finished);
      row.querySelector("[data-ghost-line]").textContent = finished
        ? section.dataset.lineFinished.replace("#t", fmt(ghost.finish))
        : filled.size + " / " + ghost.to_fill;
      if (finished && !done.has(n)) {
        done.add(n);
        if (!first) toast(section.dataset.finished.replace("#n", ghost.name).replace("#t", fmt(ghost.finish)), row.className.match(/racer-c\d/)[0]);
      }
    });
  }
  let first = true;  // a ghost already past its finish when the page loaded is no news
  draw();
  first = false;
  setInterval(draw, 250);
})();
