// The main menu on a phone: folded behind a "Menu" button so that the header is one line, and
// opened as a list of large targets. Without this script every link simply shows.
(function () {
  "use strict";

  var nav = document.querySelector(".site-nav");
  var toggle = nav && nav.querySelector(".menu-toggle");
  if (!toggle) return;
  nav.classList.add("foldable");
  toggle.hidden = false;
  toggle.addEventListener("click", function () {
    var open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && nav.classList.contains("open")) {
      toggle.setAttribute("aria-expanded", "false");
      nav.classList.remove("open");
      toggle.focus();
    }
  });
})();
