// Time zone fields (progressive enhancement): offer this browser's own zone. An empty field
// is filled in with it; a field holding another zone gets a button that puts it in. Without
// JavaScript the field is typed by hand (any case: the server reads europe/lisbon as
// Europe/Lisbon).
(function () {
  "use strict";
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!zone || zone === "Etc/Unknown") { return; }  // Chrome's word for "no idea"
  document.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
    if (!input.value.trim()) {
      input.value = zone;
      note(input, "Filled in from this device: " + zone + ".");
      return;
    }
    if (input.value.trim().toLowerCase() === zone.toLowerCase()) { return; }
    var offer = document.createElement("button");
    offer.type = "button";
    offer.className = "secondary browser-zone";
    offer.textContent = "Use this device’s time zone: " + zone;
    offer.addEventListener("click", function () {
      input.value = zone;
      offer.remove();
      note(input, "Filled in from this device: " + zone + ".");
      input.focus();
    });
    input.insertAdjacentElement("afterend", offer);
  });

  function note(input, text) {
    var hint = document.createElement("p");
    hint.className = "hint browser-zone-note";
    hint.setAttribute("role", "status");
    hint.textContent = text;
    input.insertAdjacentElement("afterend", hint);
  }
}());
