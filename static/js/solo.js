// Solo Run: a closed tab pauses the run (How to Play: no page open, no clock running once
// the run has an entry). Leaving the page sends the Pause button's request as a beacon; a
// reload of the same tab resumes at once, so reloading keeps the run going.
(function () {
  "use strict";
  function game() { return document.querySelector("#game[data-leave-url]"); }
  function key(section) { return "solo-left-" + section.dataset.runId; }

  window.addEventListener("pagehide", function () {
    const section = game();
    if (!section || section.dataset.state !== "playing" || !navigator.sendBeacon) return;
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    const form = new FormData();
    form.append("command", "pause");
    if (token) form.append("csrfmiddlewaretoken", token.value);
    navigator.sendBeacon(section.dataset.leaveUrl, form);
    try { sessionStorage.setItem(key(section), String(Date.now())); } catch (e) { /* private mode */ }
  });

  // The pause this tab sent as it reloaded can land after the new page: a move refused
  // for it ("paused") in the next seconds resumes the run and is sent again, once.
  let reloaded = 0;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    if (detail.xhr.status !== 409 || !reloaded || Date.now() - reloaded > 15000) return;
    const form = document.querySelector("#move-form");
    const sent = detail.requestConfig && detail.requestConfig.formData;
    if (!form || !sent || !sent.has("digit") || detail.xhr.responseText.indexOf('data-state="paused"') < 0) return;
    reloaded = 0;
    detail.shouldSwap = false;
    const move = Object.fromEntries(sent);
    const url = game().dataset.leaveUrl;
    const resume = new FormData();
    resume.append("command", "resume");
    resume.append("csrfmiddlewaretoken", move.csrfmiddlewaretoken || "");
    fetch(url, { method: "POST", body: resume, credentials: "same-origin", redirect: "manual" }).then(function () {
      htmx.ajax("POST", url, { source: form, values: move, target: "#game", swap: "outerHTML" });
    });
  });

  document.addEventListener("DOMContentLoaded", function () {
    const section = game();
    if (!section) return;
    let left = null;
    try { left = sessionStorage.getItem(key(section)); sessionStorage.removeItem(key(section)); } catch (e) { return; }
    // This tab paused the run as it reloaded a moment ago: carry on where it was. The pause
    // may still be on its way (a beacon is not ordered with the reload), so the resume is
    // sent again once it has surely arrived; a resume of a running run changes nothing.
    if (!left || Date.now() - Number(left) > 15000) return;
    reloaded = Date.now();
    const resume = section.querySelector('button[name="command"][value="resume"]');
    if (resume) resume.click();
    setTimeout(function () {
      const token = document.querySelector("input[name=csrfmiddlewaretoken]");
      const now = game();
      if (!now || !token) return;
      const paused = now.querySelector('button[name="command"][value="resume"]');
      if (paused) { paused.click(); return; }
      const form = new FormData();
      form.append("command", "resume");
      form.append("csrfmiddlewaretoken", token.value);
      fetch(now.dataset.leaveUrl, { method: "POST", body: form, credentials: "same-origin", redirect: "manual" });
    }, 1500);
  });
})();
