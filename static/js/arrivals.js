// The arrivals and door pages: the search box hides the players whose names do not match, and a
// box ticked before htmx was ready (a quick tap while the page loads) is sent once it is.
// Without this script every name simply shows, and the form's own button saves the ticks.
(function () {
  "use strict";
  document.querySelectorAll("[data-filter]").forEach(function (box) {
    var list = document.getElementById(box.getAttribute("data-filter"));
    if (!list) return;
    box.hidden = false;
    box.addEventListener("input", function () {
      var wanted = box.value.trim().toLowerCase();
      list.querySelectorAll("[data-name]").forEach(function (item) {
        item.hidden = wanted !== "" && item.getAttribute("data-name").indexOf(wanted) === -1;
      });
    });
  });

  window.addEventListener("load", function () {
    if (!window.htmx) return;
    document.querySelectorAll("input[type=checkbox][hx-post]").forEach(function (tick) {
      if (tick.checked !== tick.defaultChecked) {
        window.htmx.trigger(tick, "change");
      }
    });
  });
})();
