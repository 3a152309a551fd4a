// The table page's shared parts, as window.SoloTable: the one listener per event on the page (on),
// the page's elements (the entry form, the outbox), the CSRF token, messages to the scorer (say),
// and the state the other parts share (the outbox as last read, the sheet's ETag). Loaded first of
// the table page's scripts: table-fields.js, table-drafts.js, table-outbox.js, table-poll.js and
// table.js register their handlers here, in that order, which is the order they run in.
(function () {
  "use strict";

  // One listener per event on the page: each part registers its handler here, and they run in
  // the order registered. "change" is heard in the capture phase, before htmx (listening on the
  // form) builds the preview's request, which must carry the fields as the contract shows them.
  var handlers = {};
  function on(type, handler) {
    if (!handlers[type]) {
      handlers[type] = [];
      document.addEventListener(type, function (event) {
        handlers[type].forEach(function (each) { each(event); });
      }, type === "change");
    }
    handlers[type].push(handler);
  }

  // --- the page's parts --------------------------------------------------------------------------

  function outboxEl() { return document.getElementById("outbox"); }
  function handForm() { return document.getElementById("hand-form"); }
  function tableKey() { var o = outboxEl(); return o ? o.dataset.table : ""; }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // --- messages: beside Save when the entry form is there, else above the sheet ------------------

  function say(text, kind, inEntry) {
    var box = inEntry !== false ? document.getElementById("save-status") : null;
    if (box) {
      box.replaceChildren();
      if (text) {
        var p = document.createElement("p");
        p.className = "message" + (kind ? " " + kind : "");
        p.setAttribute("role", kind === "error" ? "alert" : "status");
        p.textContent = text;
        box.appendChild(p);
      }
      return;
    }
    var status = document.getElementById("sheet-status");
    if (!status) return;
    status.textContent = text;
    status.hidden = !text;
  }

  function fromEntry(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.closest && elt.closest("#entry"));
  }

  function isSave(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.id === "save-hand");
  }

  // An answer's out-of-band parts (the new row, the totals, the sheet) put in place, leaving the
  // entry form as it is: what the outbox and the poll receive.
  function applyAnswer(html) {
    if (window.htmx) htmx.swap(document.body, html, { swapStyle: "none" });
  }

  window.SoloTable = {
    on: on,
    outboxEl: outboxEl,
    handForm: handForm,
    tableKey: tableKey,
    csrfToken: csrfToken,
    say: say,
    fromEntry: fromEntry,
    isSave: isSave,
    applyAnswer: applyAnswer,
    // Shared between the parts: the outbox as last read, so a click can decide at once where a
    // save goes (table-outbox.js keeps it); the sheet's ETag as last seen (the save's answer, the
    // outbox's sends and the poll keep it); whether the outbox is sending (table-outbox.js).
    state: { pending: [], etag: "", flushing: false },
  };
})();
