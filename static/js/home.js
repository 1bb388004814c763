// The schedule form's time zone defaults to the browser's own zone.
(function () {
  "use strict";
  const select = document.querySelector("select[data-browser-zone]"); // the daily cards mark hidden inputs too
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (select && zone && Array.from(select.options).some(function (o) { return o.value === zone; })) select.value = zone;
})();
