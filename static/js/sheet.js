// The hand form from the keyboard, as quick as the selects it replaced: in a group of buttons
// (contract, declarer, tricks...) typing the first letters or the digits chooses one, as a
// select's type-ahead does (arrows move as in any radio group); Tab goes to the next group; Enter
// saves, from a button group or a select alike ("All passed", then Enter).
(function () {
  "use strict";

  var typed = "";
  var typedAt = 0;
  var typedIn = ""; // the group typed in: another group starts a new word
  var PAUSE_MS = 800; // a pause this long starts a new word

  function labelOf(input) {
    var span = input.closest(".chip").querySelector("span");
    return (input.getAttribute("aria-label") || (span ? span.textContent : "")).trim().toLowerCase();
  }

  function choose(input) {
    var label = input.closest(".chip");
    if (label && label.classList.contains("far")) {
      var group = input.closest("[data-tricks]");
      if (group) group.classList.add("all-tricks");
    }
    input.checked = true;
    input.focus();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!target.form || target.form.id !== "hand-form" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Enter" && (target.tagName === "SELECT" || target.type === "radio")) {
      var save = target.form.querySelector("#save-hand");
      if (!save || save.disabled) return;
      event.preventDefault();
      save.click();
      return;
    }
    if (target.type !== "radio" || event.key.length !== 1 || event.key === " ") {
      typed = "";
      return;
    }
    var now = Date.now();
    var fresh = now - typedAt > PAUSE_MS || typedIn !== target.name;
    typed = fresh ? event.key.toLowerCase() : typed + event.key.toLowerCase();
    typedAt = now;
    typedIn = target.name;
    var group = Array.from(target.form.querySelectorAll("input[type=radio][name=" + target.name + "]"))
      .filter(function (input) { return !input.disabled && !input.closest("[hidden]"); });
    var match = group.filter(function (input) { return labelOf(input).indexOf(typed) === 0; })[0];
    if (!match && typed.length > 1) {
      // A new first letter after a pause-less run: start again from it.
      typed = event.key.toLowerCase();
      match = group.filter(function (input) { return labelOf(input).indexOf(typed) === 0; })[0];
    }
    if (match) {
      event.preventDefault();
      choose(match);
    }
  });
})();
