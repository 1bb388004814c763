// A first-play walkthrough (templates/games/tour.html): a few steps, each ringing a part of
// the real game on the page, with Next and Skip. Shown once per game in this browser:
// finishing or skipping it is remembered (localStorage), and a private window without
// storage just shows it again. Non-modal: the game stays playable under it.
(function () {
  "use strict";
  const tour = document.querySelector(".tour[data-tour]");
  if (!tour) return;
  const key = "tour-" + tour.dataset.tour;
  const steps = Array.from(tour.querySelectorAll("[data-tour-target]"));
  const next = tour.querySelector("[data-tour-next]");
  let at = -1;

  function seen() { try { return localStorage.getItem(key) === "done"; } catch (e) { return false; } }
  // A step without a target (a duel's lobby has no board yet) rings nothing.
  function target() { return at >= 0 && steps[at].dataset.tourTarget ? document.querySelector(steps[at].dataset.tourTarget) : null; }
  function ring() {  // the target again after a swap (a move redraws the game)
    for (const el of document.querySelectorAll(".tour-target")) el.classList.remove("tour-target");
    const el = target();
    if (el) el.classList.add("tour-target");
    return el;
  }
  function show(index) {
    at = index;
    steps.forEach(function (step, i) { step.hidden = i !== index; });
    tour.querySelector(".tour-title").textContent = tour.dataset.stepLabel
      .replace("{n}", String(index + 1)).replace("{total}", String(steps.length));
    next.textContent = index === steps.length - 1 ? next.dataset.done : next.dataset.next;
    const el = ring();
    const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    // To the top of the screen, clear of the card at its foot (the page gets room to scroll).
    if (el) el.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    next.focus({ preventScroll: true });
  }
  // "tour-done" on the body once the walkthrough is over (or was seen before): a first Domino
  // game's clock starts then (templates/domino/game.html). After the page's load, so that
  // htmx listens already.
  function done() {
    const fire = function () { document.body.dispatchEvent(new CustomEvent("tour-done", { bubbles: true })); };
    if (document.readyState === "complete") fire(); else window.addEventListener("load", fire);
  }
  function close() {
    try { localStorage.setItem(key, "done"); } catch (e) { /* private mode */ }
    at = -1;
    ring();
    tour.hidden = true;
    document.body.classList.remove("touring");
    done();
  }

  next.addEventListener("click", function () { at < steps.length - 1 ? show(at + 1) : close(); });
  tour.querySelector("[data-tour-skip]").addEventListener("click", close);
  tour.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { event.stopPropagation(); close(); }
  });
  document.addEventListener("htmx:afterSettle", function () { if (at >= 0) ring(); });
  // A duel's lobby walkthrough gives way when the room starts (not marked as seen: it was not finished).
  const whileSelector = tour.dataset.tourWhile;
  if (whileSelector) {
    new MutationObserver(function () {
      if (!tour.hidden && !document.querySelector(whileSelector)) {
        at = -1; ring(); tour.hidden = true; document.body.classList.remove("touring");
      }
    }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
  }

  function start() {
    if (seen()) { done(); return; }
    const first = steps.length ? steps[0].dataset.tourTarget : null;
    if (!steps.length || (first && !document.querySelector(first))) return;
    tour.hidden = false;
    document.body.classList.add("touring");
    show(0);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
