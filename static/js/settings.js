// The display settings page (players/display.py): a change applies at once, here, by setting
// its attribute on <html> (what base.html renders from the stored settings on every page), while
// htmx posts the form and the answer says "Saved.". Without scripts, Save posts the form.
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    const input = event.target;
    if (!input.matches("[data-settings-form] input[type=radio]")) return;
    document.documentElement.setAttribute("data-" + input.name.replace("_", "-"), input.value);
    const status = input.form.querySelector("[data-settings-status]");
    if (status) status.textContent = "";
  });
})();
