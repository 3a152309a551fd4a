// The table page: show only the fields the chosen contract uses, and say so when a change could
// not reach the server. htmx does the rest (preview, save, focus on the first field).
(function () {
  "use strict";

  function showFieldsFor(form) {
    var contract = form.querySelector("select[name=contract]");
    if (!contract) return;
    var value = contract.value || "none";
    form.querySelectorAll("[data-show-for]").forEach(function (field) {
      field.hidden = field.dataset.showFor.split(" ").indexOf(value) === -1;
      // A hidden field is not sent: the server refuses, say, a partner sent with a solo.
      field.querySelectorAll("input, select, textarea").forEach(function (input) {
        input.disabled = field.hidden;
      });
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.name === "contract" && event.target.form) showFieldsFor(event.target.form);
  });

  function say(text) {
    var status = document.getElementById("sheet-status");
    if (!status) return;
    status.textContent = text;
    status.hidden = !text;
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || event.detail.xhr.status === 409 || event.detail.xhr.status === 422) {
      say("");
    }
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    say(status === 403
      ? "You are not allowed to change this sheet (log in as a scorer). Nothing was saved."
      : "The server could not do that (error " + status + "). Nothing was saved: reload the page.");
  });
  document.addEventListener("htmx:sendError", function () {
    say("No connection to the server: nothing was saved. Check the connection and save again.");
  });
})();
