// Sudoku Showdown's service worker, served at /sw.js so its scope is the whole site. It only
// shows reminders of scheduled showdowns (Web Push) and opens the room when one is tapped;
// it caches nothing.
"use strict";

self.addEventListener("push", function (event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: "Sudoku Showdown", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "Sudoku Showdown", {
    body: data.body || "",
    tag: data.tag || undefined,  // a newer reminder of the same room replaces the older one
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (const client of windows) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  }));
});
