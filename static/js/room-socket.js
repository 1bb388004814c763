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
})();
