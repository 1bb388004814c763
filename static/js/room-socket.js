// Room socket refusals (rooms/consumers.py accepts, then closes with a code). The htmx ws
// extension reconnects by itself only after 1006/1011/1012/1013. "Try later" (4429: too
// many connects or sockets from here; 4503: the server was busy) reconnects after a wait
// that doubles each time (2.5-5 s at first, at most 40-80 s); "not allowed" (4401: no player cookie,
// or signed out in this browser; 4404: no such room) stays closed and says why.
(function () {
  "use strict";
  const TRY_LATER = [4429, 4503];
  const NOT_ALLOWED = { 4401: "noPlayer", 4404: "noRoom" };
  let waits = 0;
  let timer = null;

  function say(key) {
    const line = document.getElementById("socket-status");
    if (!line) return;
    line.textContent = key ? line.dataset[key] : "";
    line.hidden = !key;
  }

  document.addEventListener("htmx:wsOpen", function () {
    waits = 0;
    say(null);
  });
  document.addEventListener("htmx:wsClose", function (event) {
    const code = event.detail.event.code;
    const socket = event.detail.socketWrapper;
    if (TRY_LATER.includes(code)) {
      const wait = 5000 * Math.pow(2, Math.min(waits, 4)) * (0.5 + Math.random() / 2);
      waits += 1;
      say("tryLater");
      clearTimeout(timer);
      timer = setTimeout(function () { socket.reconnect(); }, wait);
    } else if (NOT_ALLOWED[code]) {
      say(NOT_ALLOWED[code]);
    }
  });

  // A ws-send form goes over the socket once htmx's ws extension has wired it, just after the
  // swap that brought it. A click in between submitted the bare form as a page load (a GET of
  // this page with ?action=ready): the ready or start was lost with the page. htmx's own handler
  // sits on the form and runs first; a submit nobody took yet is held and tried again as soon as
  // the form (or the form that replaced it, with the same action) is wired.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (event.defaultPrevented || !form.matches || !form.matches("form[ws-send]")) return;
    event.preventDefault();
    const action = form.querySelector("input[name=action]");
    const tries = Number(form.dataset.heldTries || 0) + 1;
    if (tries > 40) return;  // never wired (no socket on this page): the click does nothing
    setTimeout(function () {
      let target = form;
      if (!form.isConnected && action) {
        target = document.querySelector('form[ws-send] input[name=action][value="' + action.value + '"]');
        target = target && target.form;
      }
      if (!target || !target.isConnected) return;
      target.dataset.heldTries = String(tries);
      target.requestSubmit();
    }, 25);
  });
})();
