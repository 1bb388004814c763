// Passkeys cannot work on every page load (templates/mfa/webauthn/snippets/unavailable.html):
// browsers refuse an IP address as the relying party, and some have no WebAuthn. Say why and
// disable the passkey button instead of letting the player meet a silent failure.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  const note = document.querySelector("[data-passkey-unavailable]");
  if (!note) return;
  const host = location.hostname;
  const address = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.indexOf(":") >= 0 || host.charAt(0) === "[";
  let reason = "";
  if (!window.PublicKeyCredential) reason = note.dataset.noWebauthn;
  else if (address) reason = note.dataset.address.replace("%(host)s", host);
  if (!reason) return;
  note.textContent = reason;
  note.hidden = false;
  const button = note.dataset.button && document.getElementById(note.dataset.button);
  if (button) button.disabled = true;
});
