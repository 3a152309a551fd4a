// Every page: the main menu folded on a phone, and tables that scroll sideways made reachable
// from the keyboard.
(function () {
  "use strict";

  // The menu: on a phone, folded behind a "Menu" button so that the header is one line, and
  // opened as a list of large targets. Without this script every link simply shows.
  var nav = document.querySelector(".site-nav");
  var toggle = nav && nav.querySelector(".menu-toggle");
  if (toggle) {
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
  }

  // A name box's maxlength counts UTF-16 units, so an emoji counts twice and the browser would
  // cut a name the server accepts (it counts characters). Count characters as the server does:
  // the box takes any length, and says so before sending one that is too long.
  function countCharacters(root) {
    // Names: where a player's name is typed (the hand form's notes keep their own limit).
    var names = "input[maxlength][name=name], input[maxlength][name$=-name], input[maxlength][name=new_player]";
    root.querySelectorAll(names).forEach(function (box) {
      var most = parseInt(box.getAttribute("maxlength"), 10);
      if (!(most > 0)) return;
      box.removeAttribute("maxlength");
      box.dataset.maxChars = String(most);
      box.addEventListener("input", function () {
        var count = Array.from(box.value).length;
        box.setCustomValidity(count > most ? "At most " + most + " characters (this has " + count + ")." : "");
      });
    });
  }
  countCharacters(document);
  document.body.addEventListener("htmx:load", function (event) { countCharacters(event.target); });

  // A table too wide for the screen scrolls in its .table-wrap: make that box a named, focusable
  // region while it scrolls, so that keyboard users can scroll it too (WCAG 2.1.1).
  function markScrollers() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      if (scrolls && !wrap.hasAttribute("tabindex")) {
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        var caption = wrap.querySelector("caption");
        var heading = wrap.closest("section, article, details");
        heading = heading && heading.querySelector("h2, h3, summary");
        var name = (caption || heading || {}).textContent || "Table";
        wrap.setAttribute("aria-label", name.trim().replace(/\s+/g, " ") + " (scrolls sideways)");
        wrap.dataset.scrollRegion = "";
      } else if (!scrolls && wrap.dataset.scrollRegion !== undefined) {
        ["tabindex", "role", "aria-label", "data-scroll-region"].forEach(function (name) {
          wrap.removeAttribute(name);
        });
      }
    });
  }

  markScrollers();
  window.addEventListener("resize", markScrollers);
  document.addEventListener("htmx:afterSettle", markScrollers);
})();
