// Sound cues (issue 14): a wrong entry and a finish. Never before the player's first
// interaction with the page (and browsers would refuse autoplay anyway), never while the
// page is hidden, and not at all when the footer's mute control is on (remembered in this
// browser's localStorage; the game screen has the same switch, for sound and vibration). The cues are found in what the server swaps in: a board cell
// with data-wrong, an element with data-sound="finish".
(function () {
  "use strict";

  const KEY = "sound-muted";
  // The files' URLs come from the script tag ({% static %}: hashed names in production).
  const tag = document.currentScript;
  const files = { wrong: tag && tag.dataset.wrong, finish: tag && tag.dataset.finish,
                  tick: tag && tag.dataset.tick, go: tag && tag.dataset.go };
  const audio = {};
  let interacted = false;

  function muted() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  function setMuted(on) {
    try { on ? localStorage.setItem(KEY, "1") : localStorage.removeItem(KEY); } catch (e) { /* private mode */ }
    for (const button of document.querySelectorAll("[data-sound-toggle]")) button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  // The first tap or key press unlocks sound; the files load then, not with the page.
  function unlock() {
    if (interacted) return;
    interacted = true;
    for (const name in files) {
      if (!files[name]) continue;
      audio[name] = new Audio(files[name]);
      audio[name].preload = "auto";
      audio[name].volume = 0.6;
    }
  }
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);

  function play(name) {
    if (!interacted || muted() || document.hidden || !audio[name]) return;
    const sound = audio[name];
    sound.currentTime = 0;
    const done = sound.play();
    if (done && done.catch) done.catch(function () { /* refused by the browser: stay silent */ });
    document.documentElement.dataset.lastSound = name;  // for tests: what would have played
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) for (const name in audio) audio[name].pause();
  });

  // A finish cue plays once per finish (data-sound-key), also across a reload or a room's
  // re-render; what was already on the page when it loaded is never cued.
  function heard(key) {
    try { return sessionStorage.getItem("sound-" + key) === "1"; } catch (e) { return false; }
  }
  function remember(key) {
    try { sessionStorage.setItem("sound-" + key, "1"); } catch (e) { /* private mode */ }
  }
  // A wrong entry also buzzes where the Vibration API exists (Android; iOS has none), under
  // the same switch: one "sound and vibration" setting.
  function buzz() {
    if (!interacted || muted() || document.hidden || !navigator.vibrate) return;
    navigator.vibrate([60, 40, 60]);
    document.documentElement.dataset.lastBuzz = String(Date.now());  // for tests
  }
  function scan(cue) {
    for (const cell of document.querySelectorAll("[data-board] [data-wrong]:not([data-cued])")) {
      cell.dataset.cued = "";
      if (cue) { play("wrong"); buzz(); }
    }
    for (const el of document.querySelectorAll('[data-sound="finish"]:not([data-cued])')) {
      el.dataset.cued = "";
      const key = el.dataset.soundKey || "";
      if (cue && !(key && heard(key))) play("finish");
      if (key) remember(key);
    }
  }
  // Other scripts ask for a cue by name (the room's 3-2-1 countdown: "tick", "go").
  document.addEventListener("sound:cue", function (event) { play(event.detail && event.detail.name); });
  // A game's own switch comes and goes with the game's swaps: shown and set again after each.
  function sync() {
    for (const button of document.querySelectorAll("[data-sound-toggle][hidden]")) button.hidden = false;
    const on = muted() ? "true" : "false";
    for (const button of document.querySelectorAll("[data-sound-toggle]")) button.setAttribute("aria-pressed", on);
  }
  document.addEventListener("htmx:afterSettle", function () { sync(); scan(true); });
  document.addEventListener("htmx:wsAfterMessage", function () { sync(); scan(true); });

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-sound-toggle]");
    if (button) setMuted(button.getAttribute("aria-pressed") !== "true");
  });

  function ready() {
    sync();
    scan(false);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
