// Scheduled showdowns: "I'm coming" sends the browser's time zone and the page's language
// along, so reminders tell this guest the time in their own zone, in their language. "Notify
// me in this browser" asks for permission only from the tap, registers the service worker at
// the site root (/sw.js), subscribes with the server's VAPID key and hands the subscription
// to the server, which turns push reminders on for this room's guest list.
(function () {
  "use strict";
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  document.addEventListener("htmx:wsConfigSend", function (event) {
    const action = event.detail.parameters.action;
    if (action !== "coming" && action !== "not_coming") return;
    event.detail.parameters.zone = zone;
    event.detail.parameters.lang = document.documentElement.lang || "";
  });

  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  // iOS Safari outside a Home Screen app has no PushManager: say how to get one.
  const ios = /iP(hone|ad|od)/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  const standalone = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
  function mark(root) {
    for (const hint of root.querySelectorAll("[data-ios-hint]")) hint.hidden = !(ios && !standalone && !supported);
  }
  new MutationObserver(function (records) {
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) mark(node);
  }).observe(document.documentElement, { childList: true, subtree: true });
  mark(document);

  function keyBytes(base64url) {
    const base64 = (base64url + "=".repeat((4 - base64url.length % 4) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-push-subscribe]");
    if (!button) return;
    const status = button.parentElement.querySelector("[data-push-status]");
    const say = function (text) { if (status) status.textContent = text; };
    if (!supported) { say(button.dataset.unsupported); return; }
    button.disabled = true;
    say(button.dataset.working);
    // Asked here, inside the tap: browsers refuse (or hide) permission prompts without one.
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("denied");
      return navigator.serviceWorker.register("/sw.js", { scope: "/" });
    }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        return existing || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(button.dataset.key) });
      });
    }).then(function (subscription) {
      const body = Object.assign(subscription.toJSON(), { room: button.dataset.room });
      return fetch(button.dataset.url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify(body),
      });
    }).then(function (response) {
      if (!response.ok) throw new Error("refused");
      // The room's socket push redraws the guest list with push turned on.
    }).catch(function (error) {
      button.disabled = false;
      say(error && error.message === "denied" ? button.dataset.denied : button.dataset.failed);
    });
  });
})();
