// The schedule form's time zone defaults to the browser's own zone.
(function () {
  "use strict";
  const select = document.querySelector("[data-browser-zone]");
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (select && zone && Array.from(select.options).some(function (o) { return o.value === zone; })) select.value = zone;
})();
