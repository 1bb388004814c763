// Loaded in the room page's head, not deferred: it must be listening before the first click.
// A ws-send form goes over the socket once htmx's ws extension has wired it: after the page's
// deferred scripts ran, and again just after each swap that brings a new form. A click before
// that submitted the bare form as a page load (a GET of this page with ?action=ready): the
// ready or start was lost with the page. htmx's own handler sits on the form and runs first;
// a submit nobody took is held and tried again until the form (or the form that replaced it,
// with the same action) is wired, for 5 s at most.
(function () {
  "use strict";
  const RETRY_MS = 25;
  const MAX_TRIES = 200;
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (event.defaultPrevented || !form.matches || !form.matches("form[ws-send]")) return;
    event.preventDefault();
    const action = form.querySelector("input[name=action]");
    const tries = Number(form.dataset.heldTries || 0) + 1;
    if (tries > MAX_TRIES) return;  // never wired (the socket extension did not load): nothing is sent
    setTimeout(function () {
      let target = form;
      if (!form.isConnected && action) {
        const input = document.querySelector('form[ws-send] input[name=action][value="' + CSS.escape(action.value) + '"]');
        target = input && input.form;
      }
      if (!target || !target.isConnected) return;
      target.dataset.heldTries = String(tries);
      target.requestSubmit();
    }, RETRY_MS);
  });
})();
