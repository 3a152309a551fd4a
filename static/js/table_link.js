// A table's link: when the server refuses a save because this link sent too many at once (429),
// say so in the server's own words (table.js shows a generic message for other errors).
(function () {
  "use strict";
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status !== 429) return;
    var status = document.getElementById("sheet-status");
    if (!status) return;
    status.textContent = xhr.responseText;
    status.hidden = false;
  });
})();
