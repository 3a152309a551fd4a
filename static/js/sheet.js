// The table page's keyboard order: the trumps select is in the tab order only for a contract
// whose declarer names trumps (its data-named-for lists them; the server sets the first state).
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
})();
