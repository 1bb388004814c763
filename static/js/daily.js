// Daily puzzles: the browser's IANA time zone goes to the server (a cookie, and each start
// form's field), so "today" is the player's own date; the page rendered for another zone
// (the first visit, a trip) reloads once with it. The share line's Copy and Share buttons.
(function () {
  "use strict";
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* old browser: UTC */ }
  if (zone) {
    // IANA names are cookie-safe (letters, "/", "_", "-", "+"): sent as they are.
    if (/^[A-Za-z0-9_\/+-]+$/.test(zone)) document.cookie = "showdown_zone=" + zone + "; path=/; max-age=31536000; samesite=lax";
    document.querySelectorAll("input[data-browser-zone]").forEach(function (input) { input.value = zone; });
    const page = document.querySelector("[data-zone-page]");
    const key = "daily-zone-reload";
    if (page && page.dataset.zone !== zone) {
      let tried = null;
      try { tried = sessionStorage.getItem(key); sessionStorage.setItem(key, zone); } catch (e) { tried = zone; }
      if (tried !== zone) { window.location.reload(); return; }  // once: never a reload loop
    }
  }

  document.addEventListener("click", function (event) {
    const copy = event.target.closest("[data-copy]");
    const share = event.target.closest("[data-share-button]");
    const box = (copy || share) && (copy || share).closest("[data-share]");
    if (!box) return;
    const text = box.querySelector("[data-share-text]").textContent.trim();
    if (share) {
      // The card's picture where the share sheet takes files (fetched ahead: the tap's user
      // activation would not outlast a download), else the link to the card's page.
      const url = new URL(box.dataset.shareUrl || "/daily/", window.location.origin).href;
      const file = cards.get(box);
      const data = file && navigator.canShare && navigator.canShare({ files: [file] })
        ? { files: [file], text: text + " " + url } : { text: text, url: url };
      navigator.share(data).catch(function () { /* dismissed */ });
      return;
    }
    const done = function () {
      const said = box.querySelector("[data-copied]");
      if (said) { said.hidden = false; setTimeout(function () { said.hidden = true; }, 2500); }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { select(box); });
    } else {
      select(box);
      try { if (document.execCommand("copy")) done(); } catch (e) { /* selected: the player copies */ }
    }
  });

  function select(box) {
    const range = document.createRange();
    range.selectNodeContents(box.querySelector("[data-share-text]"));
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  const cards = new Map();  // share box -> the card's PNG as a File
  if (navigator.share) {
    document.querySelectorAll("[data-share-button]").forEach(function (button) { button.hidden = false; });
    document.querySelectorAll("[data-share][data-card-url]").forEach(function (box) {
      if (!window.File || !navigator.canShare) return;
      fetch(box.dataset.cardUrl).then(function (r) { return r.ok ? r.blob() : null; }).then(function (blob) {
        if (blob) cards.set(box, new File([blob], "sudoku-showdown-daily.png", { type: "image/png" }));
      }).catch(function () { /* offline: the link is shared instead */ });
    });
  }
})();
