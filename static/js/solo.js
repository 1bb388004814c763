// Solo Run: the pause rule said the moment it applies (How to Play, "Solo Run"). A ranked run
// paused after its first entry turns Assisted once the pause passes 10 s: the paused screen's
// line (a live region, so it is announced) says so then, and the badge changes with it; the
// server records it at the resume. Leaving the page is not a pause: nothing is sent as the
// page goes, the clock runs on, and the run carries on wherever it is opened next.
(function () {
  "use strict";
  let timer = null;

  function arm() {
    clearTimeout(timer);
    const line = document.querySelector("[data-pause-rule]");
    if (!line) return;
    const left = Number(line.dataset.pauseLeft);
    if (left > 0) timer = setTimeout(function () { applied(line); }, left * 1000);
    else applied(line);  // over already (a reload, another device): the badge says it too
  }

  function applied(line) {
    if (!line.isConnected) return;
    line.textContent = line.dataset.assistedText;
    line.classList.add("is-warn");
    const badge = document.getElementById("run-kind");
    if (badge) {
      badge.className = "badge assisted";
      badge.textContent = line.dataset.assistedLabel;
    }
  }

  document.addEventListener("DOMContentLoaded", arm);
  document.addEventListener("htmx:afterSettle", arm);
})();
