// The arrivals and door pages: the search box hides the players whose names do not match.
// Without this script every name simply shows.
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
})();
