// The sign-up form's time zone: the browser's own, when the server knows it and the person has
// not chosen one yet (the server's default is only a guess). The currency follows the zone's
// country (the server's table, #zone-data: Australia/Sydney -> $ with 2 decimals) until
// the person types a currency of their own; a zone of no known currency leaves it as it is.
// The rules to start from follow the currency: a club in £ counts in pence (Hoyle), any other
// currency in cents (Cents), as the server requires (#zone-data's presetUnits).
(function () {
  "use strict";
  var select = document.getElementById("id_time_zone");
  if (!select) return;
  var form = select.form;
  var posted = !!(form && form.querySelector(".errorlist")); // a posted form keeps its choices
  var symbol = document.getElementById("id_currency_symbol");
  var decimals = document.getElementById("id_minor_units");
  var table = document.getElementById("zone-data");
  var data = {};
  try {
    data = table ? JSON.parse(table.textContent) : {};
  } catch (error) {
    data = {};
  }
  var currencies = data.currency || {};
  var aliases = data.aliases || {}; // Chromium says Asia/Calcutta where the list has Asia/Kolkata
  var presetUnits = data.presetUnits || {};
  var ownCurrency = posted;

  function fitPreset() {
    if (!form || !symbol) return;
    var kind = form.elements.namedItem("unit_kind");
    if (kind && kind.value !== "money") return;
    var chosen = form.querySelector('input[name="preset"]:checked');
    if (!chosen) return;
    var unit = presetUnits[chosen.value];
    var want = symbol.value.trim() === "£" ? "pence" : "cents";
    if ((unit !== "pence" && unit !== "cents") || unit === want) return;
    var options = form.querySelectorAll('input[name="preset"]');
    for (var i = 0; i < options.length; i++) {
      if (presetUnits[options[i].value] === want) {
        options[i].checked = true;
        return;
      }
    }
  }
  function mine() {
    ownCurrency = true;
  }
  if (symbol) {
    symbol.addEventListener("input", mine);
    symbol.addEventListener("input", fitPreset);
  }
  if (decimals) decimals.addEventListener("change", mine);

  function suggestCurrency(zone) {
    var found = currencies[zone];
    if (ownCurrency || !found) return;
    if (symbol) symbol.value = found[0];
    if (decimals) decimals.value = String(found[1]);
    fitPreset();
  }
  select.addEventListener("change", function () {
    suggestCurrency(select.value);
  });

  if (select.dataset.chosen || posted) return;
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  zone = aliases[zone] || zone;
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) {
      select.value = zone;
      suggestCurrency(zone);
      return;
    }
  }
})();
