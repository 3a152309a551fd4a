// A table's card (/k/<token>/): tap the names in seat order. Each tap gives the player the next
// seat (the seat drop-downs stay the form's truth, so the page works without this script); a
// second tap takes the player out and closes the gap. The search box filters the names.
(function () {
  "use strict";
  var form = document.getElementById("seat-form");
  if (!form) return;
  var selects = Array.prototype.slice.call(form.querySelectorAll("select.pick-seat"));
  var order = document.getElementById("seat-order");
  var search = document.getElementById("player-search");

  function chosen() {
    return selects
      .filter(function (s) { return s.value; })
      .sort(function (a, b) { return Number(a.value) - Number(b.value); });
  }

  function render() {
    var picks = chosen();
    order.innerHTML = "";
    picks.forEach(function (s, i) {
      var li = document.createElement("li");
      var name = s.closest(".pick").querySelector(".pick-name").textContent;
      li.textContent = name + (i === 0 ? " (deals first)" : "");
      order.appendChild(li);
    });
    order.hidden = picks.length === 0;
    selects.forEach(function (s) {
      s.closest(".pick").classList.toggle("picked", Boolean(s.value));
    });
  }

  function renumber() {
    chosen().forEach(function (s, i) { s.value = String(i + 1); });
  }

  selects.forEach(function (s) {
    var item = s.closest(".pick");
    item.querySelector(".pick-name").addEventListener("click", function (event) {
      event.preventDefault();
      if (s.value) {
        s.value = "";
      } else {
        var next = chosen().length + 1;
        if (next > 5) return;
        s.value = String(next);
      }
      renumber();
      render();
    });
    s.addEventListener("change", render);
  });

  if (search) {
    document.getElementById("player-search-row").hidden = false;
    search.addEventListener("input", function () {
      var q = search.value.trim().toLowerCase();
      form.querySelectorAll(".pick").forEach(function (li) {
        li.hidden = q !== "" && li.getAttribute("data-name").indexOf(q) === -1;
      });
    });
  }
  render();
})();
