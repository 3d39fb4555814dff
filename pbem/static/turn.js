// A visit: when the seat's turn notice is escalating (issue 27), the page tells the server it
// was opened in a browser, which ends the escalation. A mail scanner fetching the link runs
// no script, so it is not taken for the player.
(function () {
  "use strict";
  var seen = document.getElementById("seen-form");
  if (!seen || !window.fetch || !window.FormData) { return; }
  window.fetch(seen.action, { method: "POST", body: new FormData(seen),
                              credentials: "same-origin" });
})();

// Turn page enhancement: tapping ships lights up the facilities they can dock at without a
// page load. Without JavaScript the same links reload the page with ?pick=… (same result).
(function () {
  "use strict";
  var dice = Array.prototype.slice.call(document.querySelectorAll(".my-dice .die"));
  var groups = Array.prototype.slice.call(document.querySelectorAll("details.group.dock"));
  var noMatch = document.getElementById("no-match");
  if (!dice.length || !groups.length) { return; }

  function picked() {
    var values = [], relic = false;
    dice.forEach(function (d) {
      if (d.classList.contains("picked")) {
        values.push(d.getAttribute("data-value"));
        relic = relic || d.getAttribute("data-relic") === "1";
      }
    });
    return { key: values.sort().join(" "), relic: relic, count: values.length };
  }

  function update() {
    var p = picked(), first = null;
    groups.forEach(function (g) {
      var lit = false;
      g.querySelectorAll("button.choice").forEach(function (b) {
        var values = (b.getAttribute("data-values") || "").split(" ").sort().join(" ");
        var match = p.count > 0 && values === p.key &&
          (b.getAttribute("data-relic") === "1") === p.relic;
        b.classList.toggle("hl", match);
        lit = lit || match;
      });
      g.classList.toggle("lit", lit);
      if (lit) { g.open = true; first = first || g; }
    });
    if (noMatch) { noMatch.hidden = !(p.count > 0 && !first); }
    if (first) { first.scrollIntoView({ block: "nearest", behavior: "smooth" }); }
  }

  dice.forEach(function (d) {
    d.addEventListener("click", function (event) {
      event.preventDefault();
      var on = !d.classList.contains("picked");
      d.classList.toggle("picked", on);
      d.setAttribute("aria-pressed", on ? "true" : "false");
      update();
    });
  });
}());
