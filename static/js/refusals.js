// Every refusal of an htmx form or button lands in the message line of the game (or room)
// it came from, never as the page (issue 27, defect 1). The server answers refusals with
// the message line itself; this catches what is still a whole page (a 404 or CSRF page, a
// rate limit from a layer in front) and what brings no answer at all (a server error, no
// connection), and says it in that same line.
(function () {
  "use strict";
  const texts = document.currentScript.dataset;
  const LINES = "#game-message, #ck-message, #dm-message, #room-message";

  function line(from) {
    const scope = from && from.closest && from.closest("#game, #ck-game, #room-body, main");
    return (scope && scope.querySelector(LINES)) || document.querySelector(LINES);
  }

  function say(from, text) {
    const target = line(from);
    if (target) {
      target.textContent = text;
      target.classList.remove("is-good");
      target.classList.add("is-error");
      return;
    }
    const flash = document.getElementById("flash");  // a page with no game: the site's flash line
    if (!flash) return;
    const p = document.createElement("p");
    p.className = "message is-error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    flash.replaceChildren(p);
  }

  function wholePage(body) { return /^\s*<!doctype|<html[\s>]/i.test(body || ""); }

  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const from = detail.requestConfig && detail.requestConfig.elt;
    if (detail.xhr.status < 400) return;
    if (wholePage(detail.xhr.responseText)) {
      detail.shouldSwap = false;
      detail.isError = false;  // said below; htmx:responseError would say it twice
      const doc = new DOMParser().parseFromString(detail.xhr.responseText, "text/html");
      const found = doc.querySelector("main [role=alert], main .message, main h1 + p");
      say(from, (found && found.textContent.trim()) || texts.failed);
    } else if (detail.target && detail.target.id === "flash" && line(from)) {
      // A refusal sent to the site's flash line (games/common/responses.flash) from inside a game:
      // the game's own line, where the player is looking.
      detail.shouldSwap = false;
      const doc = new DOMParser().parseFromString(detail.xhr.responseText, "text/html");
      say(from, doc.body.textContent.trim() || texts.failed);
    }
  });
  document.addEventListener("htmx:responseError", function (event) { say(event.detail.elt, texts.failed); });
  document.addEventListener("htmx:sendError", function (event) { say(event.detail.elt, texts.offline); });
})();
