// Adding a passkey (templates/mfa/webauthn/add_form.html): starts allauth's add form from a
// file, as its inline JSON onload block would (the site's templates carry no inline script).
// The element ids come from the form's data attributes.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  const form = document.querySelector("[data-passkey-add]");
  if (!form || !window.allauth || !allauth.webauthn) return;
  allauth.webauthn.forms.addForm({ ids: {
    add: form.dataset.add, passwordless: form.dataset.passwordless, credential: form.dataset.credential, data: "js_data",
  } });
});
