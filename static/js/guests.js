// Scheduled showdowns: "I'm coming" sends the browser's time zone along, so reminders tell
// this guest the time in their own zone.
(function () {
  "use strict";
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  document.addEventListener("htmx:wsConfigSend", function (event) {
    const action = event.detail.parameters.action;
    if (action === "coming" || action === "not_coming") event.detail.parameters.zone = zone;
  });
})();
