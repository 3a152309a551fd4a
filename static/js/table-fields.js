// The table page's entry form kept in step with what is chosen: the "all tricks" button, the
// contract's change showing only the fields it uses, and neither the preview nor a refused save's
// message showing errors for fields as they were. Loaded after table-events.js and before table-drafts.js: on "change" the
// contract's fields must be shown (and enabled) before the draft reads them.
(function () {
  "use strict";

  var T = window.SoloTable;
  var on = T.on, handForm = T.handForm;
  var Form = window.SoloEntryForm;
  var showFieldsFor = Form.showFieldsFor, formFields = Form.formFields;
  var previewAsked = null; // the fields as they were when the preview on its way was asked for

  on("click", function (event) {
    var more = event.target.closest && event.target.closest("[data-all-tricks]");
    if (!more) return;
    var group = more.closest("[data-tricks]");
    group.classList.add("all-tricks");
    more.setAttribute("aria-expanded", "true");
    more.hidden = true;
    var first = group.querySelector(".chip.far input:not(:disabled)");
    if (first) first.focus();
  });

  // --- the preview never shows errors for fields as they were ------------------------------------

  on("input", markPreviewStale);
  // In the capture phase, before htmx (listening on the form) builds the preview's request: the
  // request must carry the fields as the new contract shows them.
  on("change", function (event) {
    if (event.target.name === "contract" && event.target.form) {
      event.target.closest("form").querySelectorAll("[data-tricks]").forEach(function (group) {
        group.classList.remove("all-tricks");
      });
      showFieldsFor(event.target.form);
    }
  });
  on("change", markPreviewStale);
  // Then table-drafts.js keeps the draft (its "change" handler comes next).
  on("change", dropFixedProblems);
  on("input", dropFixedProblems);

  function markPreviewStale(event) {
    if (!event.target.form || event.target.form.id !== "hand-form") return;
    var preview = document.getElementById("preview");
    if (preview) preview.classList.add("stale");
  }

  // --- "Not saved: ..." never names a field already changed --------------------------------------

  // A refused save names each problem's field (templates/club/table.html). Once the scorer changes
  // that field, or the contract hides it, its problem and its field's own error go; the problems
  // of the other fields stay, and the message goes when none is left.
  function dropFixedProblems(event) {
    var input = event.target;
    var form = input.form;
    if (!form || form.id !== "hand-form" || !input.name) return;
    var slot = input.closest(".field");
    if (slot && slot.classList.contains("has-error")) {
      slot.classList.remove("has-error");
      slot.querySelectorAll(".errorlist").forEach(function (list) { list.remove(); });
    }
    var message = document.querySelector("#save-status [data-not-saved]");
    if (!message) return;
    var dropped = false;
    message.querySelectorAll("[data-problem-for]").forEach(function (problem) {
      var name = problem.dataset.problemFor;
      if (name === input.name || !inUse(form, name)) {
        problem.remove();
        dropped = true;
      }
    });
    if (!dropped) return;
    var left = Array.prototype.slice.call(message.querySelectorAll(".problem"));
    if (!left.length) {
      message.closest("#save-status").replaceChildren();
      return;
    }
    message.replaceChildren("Not saved: ");
    left.forEach(function (problem, index) {
      if (index) message.append(" · ");
      message.append(problem);
    });
  }

  // Whether the form still sends the field: an input of that name shown for the contract.
  function inUse(form, name) {
    return Array.prototype.some.call(form.elements, function (each) {
      return each.name === name && !each.disabled;
    });
  }

  function serial(pairs) {
    return pairs.filter(function (p) { return p[0] !== "csrfmiddlewaretoken"; })
      .map(function (p) { return p[0] + "=" + p[1]; }).sort().join("&");
  }

  on("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    var form = handForm();
    if (target && target.id === "preview" && form) previewAsked = serial(formFields(form));
  });
  on("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "preview") return;
    var form = handForm();
    if (form && previewAsked !== null && serial(formFields(form)) !== previewAsked) {
      // The fields changed since this preview was asked for: a newer one is on its way.
      event.detail.shouldSwap = false;
    }
  });
  on("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "preview") {
      event.detail.target.classList.remove("stale");
    }
  });
})();
