// The table page's keyboard: the trumps select is in the tab order only for a contract whose
// declarer names trumps (its data-named-for lists them; the server sets the first state), and
// Enter in a select of the hand form saves, as it does in a text field ("All passed", then Enter).
(function () {
  "use strict";

  function syncTrumpTab(form) {
    var contract = form.querySelector("select[name=contract]");
    var trump = form.querySelector("select[name=trump][data-named-for]");
    if (!contract || !trump) return;
    var named = trump.dataset.namedFor.split(" ");
    if (named.indexOf(contract.value) === -1) {
      trump.setAttribute("tabindex", "-1");
    } else {
      trump.removeAttribute("tabindex");
    }
  }

  function onContract(event) {
    if (event.target.name === "contract" && event.target.form) syncTrumpTab(event.target.form);
  }

  document.addEventListener("input", onContract);
  document.addEventListener("change", onContract);

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key !== "Enter" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (target.tagName !== "SELECT" || !target.form || target.form.id !== "hand-form") return;
    var save = target.form.querySelector("button[type=submit]");
    if (!save || save.disabled) return;
    event.preventDefault();
    save.click();
  });
})();
