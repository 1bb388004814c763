// Room page: every socket message carries a unique id, so a message the htmx ws
// extension re-sends after a reconnect is applied once. The share link selects itself
// and has a copy button, and a share button where the phone has a share sheet.
(function () {
  "use strict";
  function messageId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  document.addEventListener("htmx:wsConfigSend", function (event) {
    event.detail.parameters.mid = messageId();
  });
  // A redraw of the room (the socket's full state after another player's forfeit, say)
  // must not close a question the player has open under their finger (Forfeit and
  // leave, the rules, the QR code): what the player opened stays open, found again by
  // its classes, until they close it or the room moves to another state. Kept across
  // messages, not per message: under load one message may redraw the room without the
  // question and the next bring it back closed.
  const keptOpen = new Set();
  let keptState = null;
  const classesOf = function (d) {
    return Array.from(d.classList).map(function (name) { return "." + CSS.escape(name); }).join("");
  };
  const roomState = function () {
    const body = document.getElementById("room-body");
    return body ? body.dataset.state : null;
  };
  document.addEventListener("toggle", function (event) {
    const d = event.target;
    if (!(d instanceof HTMLDetailsElement) || !d.isConnected) return;
    const classes = classesOf(d);
    if (!classes) return;
    if (d.open) { keptOpen.add(classes); keptState = roomState(); } else keptOpen.delete(classes);
  }, true);
  document.addEventListener("htmx:wsBeforeMessage", function () {
    // a tap just before the message: its toggle event has not run yet
    document.querySelectorAll("details[open]").forEach(function (d) {
      const classes = classesOf(d);
      if (classes) { keptOpen.add(classes); keptState = roomState(); }
    });
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (keptState !== roomState()) { keptOpen.clear(); return; }
    keptOpen.forEach(function (classes) {
      const again = document.querySelector("details" + classes);
      if (again && !again.open) again.open = true;
    });
  });
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-focus]")) event.target.select();
  });

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    const field = document.querySelector(button.dataset.copy);
    const status = document.getElementById(button.getAttribute("aria-describedby"));
    const said = function (text) { if (status) status.textContent = text; };
    if (!field) return;
    const fallback = function () {  // no clipboard API (plain http on a LAN address)
      field.focus();
      field.select();
      // The words come from the page, in its language (data-copied, data-copy-fallback).
      said(document.execCommand && document.execCommand("copy") ? button.dataset.copied : button.dataset.copyFallback);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(function () { said(button.dataset.copied); }, fallback);
    } else {
      fallback();
    }
  });

  // The phone's share sheet where the browser has one (most phones; few desktops): the
  // button stays hidden elsewhere, where Copy and the QR code do the job.
  if (navigator.share) for (const button of document.querySelectorAll("[data-share-link]")) button.hidden = false;
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-share-link]");
    const field = button && document.querySelector(button.dataset.shareLink);
    if (!field || !navigator.share) return;
    navigator.share({ title: button.dataset.shareTitle, text: button.dataset.shareText, url: field.value })
      .catch(function () { /* dismissed: nothing to say */ });
  });

  // Scheduled times: the viewer's own local time beside the host's, on the page and after
  // every socket push (pushes replace the room body and fire no afterSettle).
  function localTimes(root) {
    for (const el of root.querySelectorAll("[data-local-time]")) {
      const when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) continue;
      // In the page's language (a Dutch page in an English browser reads Dutch), the viewer's zone.
      const language = document.documentElement.lang || undefined;
      el.textContent = when.toLocaleString(language, { weekday: "short", day: "numeric", month: "short",
                                                       year: "numeric", hour: "2-digit", minute: "2-digit",
                                                       timeZoneName: "short" });
      const wrap = el.closest("[data-local-wrap]");
      if (wrap) wrap.hidden = false;
    }
  }
  // The countdown: 3, 2, 1, GO! to the server's start (data-count-down: the milliseconds left
  // when it was rendered), a tick per digit and a GO cue under the sound setting
  // (static/js/sound.js hears "sound:cue"). GO! stays a moment over the board that replaces it.
  let counting = 0;
  function cue(name) { document.dispatchEvent(new CustomEvent("sound:cue", { detail: { name: name } })); }
  function countDown(root) {
    const el = root.matches && root.matches("[data-count-down]") ? root : root.querySelector("[data-count-down]");
    if (!el) return;
    const end = performance.now() + Number(el.dataset.countDown);
    const go = el.dataset.go;
    let shown = "";
    clearInterval(counting);
    function tick() {
      const left = end - performance.now();
      const text = left > 0 ? String(Math.max(1, Math.ceil(left / 1000))) : go;
      if (text === shown) return;
      shown = text;
      const live = document.querySelector("[data-count-down]");
      if (live) live.textContent = text;
      cue(left > 0 ? "tick" : "go");
      if (left > 0) return;
      clearInterval(counting);
      const flash = document.createElement("div");
      flash.className = "go-flash";
      flash.setAttribute("aria-hidden", "true");
      flash.textContent = go;
      document.body.appendChild(flash);
      setTimeout(function () { flash.remove(); }, 1100);
    }
    counting = setInterval(tick, 50);
    tick();
  }

  new MutationObserver(function (records) {
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) { localTimes(node); countDown(node); }
  }).observe(document.documentElement, { childList: true, subtree: true });
  localTimes(document);
  countDown(document.documentElement);

  // Lobby rules: a preset fills in the options; changing an option picks the preset it now
  // matches, or Custom, so every change is sent as it shows.
  const OPTIONS = ["notes", "hint_limit", "penalty", "mistake_cap", "feedback", "submissions"];
  function optionValue(form, name) {
    const field = form.elements[name];
    if (!field) return null;
    if (field.type === "checkbox") return field.checked ? "on" : "";
    return field.value;
  }
  document.addEventListener("change", function (event) {
    const form = event.target.closest && event.target.closest("[data-rules-form]");
    if (!form) return;
    const radios = Array.from(form.querySelectorAll('input[name="preset"]'));
    if (event.target.name === "preset") {
      const preset = event.target.dataset;
      if (!preset.penalty) return;  // Custom keeps the options as they are
      for (const name of OPTIONS) {
        const field = form.elements[name];
        if (field.type === "checkbox") field.checked = preset.notes === "on";
        else field.value = preset[name];
      }
      return;
    }
    if (!OPTIONS.includes(event.target.name)) return;
    const match = radios.find(function (radio) {
      return radio.dataset.penalty && OPTIONS.every(function (name) { return radio.dataset[name] === optionValue(form, name); });
    });
    const custom = radios.find(function (radio) { return radio.value === "custom"; });
    (match || custom).checked = true;
  });
})();
