// The table page's drafts: a half-typed hand kept in the browser (localStorage, one per table) as
// it is typed, so it survives a reload, and put back in the form when the page opens again.
// Dropped once the hand is saved or kept in the outbox, or when the scorer discards it.
(function () {
  "use strict";

  var T = window.SoloTable;
  var on = T.on, handForm = T.handForm, tableKey = T.tableKey, say = T.say;
  var Form = window.SoloEntryForm;
  var isNewHandForm = Form.isNewHandForm, field = Form.field, setValue = Form.setValue;
  var showFieldsFor = Form.showFieldsFor, formFields = Form.formFields, typed = Form.typed;

  var SKIP = { csrfmiddlewaretoken: 1, client_id: 1, expected_number: 1, version: 1 };

  function draftKey() { return "solo-draft:" + tableKey(); }

  function keepDraft() {
    var form = handForm();
    if (!isNewHandForm(form) || !tableKey()) return;
    if (!typed(form)) {
      localStorage.removeItem(draftKey());
      return;
    }
    var fields = formFields(form).filter(function (pair) { return !SKIP[pair[0]]; });
    localStorage.setItem(draftKey(), JSON.stringify({ number: form.dataset.number, fields: fields }));
  }

  function dropDraft() {
    if (tableKey()) localStorage.removeItem(draftKey());
  }

  function restoreDraft() {
    var form = handForm();
    if (!isNewHandForm(form) || typed(form) || !tableKey()) return;
    var draft;
    try {
      draft = JSON.parse(localStorage.getItem(draftKey()) || "null");
    } catch (error) {
      draft = null;
    }
    if (!draft || !draft.fields) return;
    var dealer = field(form, "dealer");
    var dealerBefore = dealer ? dealer.value : "";
    // The contract first: it decides which buttons are offered for the rest.
    draft.fields.filter(function (p) { return p[0] === "contract"; }).forEach(function (pair) {
      setValue(form, pair[0], pair[1]);
    });
    showFieldsFor(form);
    draft.fields.filter(function (p) { return p[0] !== "contract"; }).forEach(function (pair) {
      setValue(form, pair[0], pair[1]);
    });
    showFieldsFor(form);
    var note = "Your unsaved hand is back in the form (kept on this device): check it and save it.";
    if (draft.number && draft.number !== form.dataset.number) {
      note = "Your unsaved hand, typed as hand " + draft.number + ", is back in the form as hand " +
        form.dataset.number + ": check it before saving.";
    }
    // Another dealer changes who plays at a table of five: let the server draw the form again.
    var changed = dealer && dealer.value !== dealerBefore
      ? dealer : form.querySelector("input[name=contract]:checked") || field(form, "contract");
    changed.dispatchEvent(new Event("change", { bubbles: true }));
    say(note, "warning");
  }

  // After table-fields.js's handlers: on "change" the contract's fields are shown by now.
  on("change", function (event) {
    if (event.target.form && event.target.form.id === "hand-form") keepDraft();
  });
  on("input", function (event) {
    if (event.target.form && event.target.form.id === "hand-form") keepDraft();
  });

  on("click", function (event) {
    if (event.target.closest && event.target.closest("[data-discard-draft]")) dropDraft();
  });

  T.dropDraft = dropDraft;
  T.restoreDraft = restoreDraft;
})();
