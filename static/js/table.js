// The table page: the answers htmx swaps, the save's request and answer (online through htmx;
// offline, or behind hands still waiting, into the outbox), asking before leaving with a hand
// typed or waiting, and start(). The rest is in the scripts loaded before this one, in this
// order, which is the order their handlers run in: table-events.js (the one listener per event,
// the page's parts, messages: window.SoloTable), table-fields.js (the fields and the preview),
// table-drafts.js (a half-typed hand kept), table-outbox.js (hands kept on the device, sent in
// order), live-push.js (push's subscription), table-poll.js (the sheet kept fresh); the entry
// form itself is static/js/entry-form.js.
(function () {
  "use strict";

  // Let htmx swap the answers that carry a message for the scorer: 409 (conflict) and 422 (bad
  // input). Set here, not in a <meta name="htmx-config">: htmx reads only the first such tag,
  // and base.html has its own.
  if (window.htmx) {
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "409|422", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
      { code: "...", swap: false },
    ];
  }

  var T = window.SoloTable;
  var on = T.on, state = T.state, outboxEl = T.outboxEl, handForm = T.handForm;
  var tableKey = T.tableKey, say = T.say, fromEntry = T.fromEntry, isSave = T.isSave;
  var Form = window.SoloEntryForm;
  var isNewHandForm = Form.isNewHandForm, field = Form.field, newId = Form.newId;
  var showFieldsFor = Form.showFieldsFor, typed = Form.typed, rotationPlan = Form.rotationPlan;
  var dealAfter = Form.dealAfter, moveToDeal = Form.moveToDeal;
  var Outbox = window.SoloOutbox;
  var POLL_MS = 10000;
  var PUSHED_POLL_MS = 60000;

  // --- saving: online through htmx, offline into the outbox (table-outbox.js) -------------------

  on("htmx:beforeRequest", function (event) {
    if (!isSave(event)) return;
    var form = handForm();
    if (!isNewHandForm(form)) {
      if (!navigator.onLine) {
        event.preventDefault();
        say("No connection: the correction was not saved. It stays in the form: save it again " +
          "when the connection returns.", "error");
      }
      return;
    }
    // Hands go in order: while some wait to be sent, this one waits behind them.
    if (!navigator.onLine || state.pending.length) {
      event.preventDefault();
      T.keepOffline(form, navigator.onLine ? "Earlier hands are still being sent." : "No connection.");
      T.flush();
    }
  });

  // The deal the server named in a save's answer (club/play/views/hand_save.py), with the trump's label
  // from the rotation the page came with.
  function dealFromAnswer(xhr) {
    var number = parseInt(xhr.getResponseHeader("X-Next-Number"), 10);
    var trump = xhr.getResponseHeader("X-Next-Trump") || "";
    var plan = rotationPlan();
    var label = plan ? (plan.trumps.filter(function (t) { return t.value === trump; })[0] || {}).label : "";
    return {
      number: number,
      dealer: xhr.getResponseHeader("X-Next-Dealer"),
      out: xhr.getResponseHeader("X-Next-Out") || null,
      trump: trump,
      trumpLabel: label || "",
    };
  }

  on("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var fresh = xhr && xhr.getResponseHeader("X-Sheet-ETag");
    if (fresh) state.etag = fresh;
    if (isSave(event) && xhr && xhr.getResponseHeader("X-Hand-Outcome") === "saved" &&
        xhr.getResponseHeader("HX-Reswap") === "none" && isNewHandForm(handForm())) {
      // Saved: the form stays, and moves on to the deal the server named.
      T.dropDraft();
      moveToDeal(handForm(), dealFromAnswer(xhr), true);
    }
    if (event.detail.successful || (xhr && (xhr.status === 409 || xhr.status === 422))) {
      var top = document.getElementById("sheet-status");
      if (top) top.hidden = true;
    }
  });

  on("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || (target.id !== "entry" && !target.closest("#entry"))) return;
    var form = handForm();
    if (form && form.dataset.saved) T.dropDraft();
    if (form) showFieldsFor(form);
  });

  on("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status >= 500 && isSave(event) && isNewHandForm(handForm())) {
      // A server error (the database busy for too long, a restart): keep the hand and send it
      // again shortly; its id makes a second arrival harmless.
      T.keepOffline(handForm(), "The server could not save it just now (error " + status + ").");
      return;
    }
    say(status === 403
      ? "You are not allowed to change this sheet (log in as a scorer). Nothing was saved."
      : status === 429
        ? "Too many saves at once from this device: wait a moment, then save again. Nothing was saved."
        : "The server could not do that (error " + status + "). Nothing was saved: reload the page.",
    "error", fromEntry(event));
  });

  on("htmx:sendError", function (event) {
    var form = handForm();
    if (isSave(event) && isNewHandForm(form)) {
      // The save may have arrived and only its reply been lost: the outbox sends it again with
      // the same id, and the server answers "already saved" rather than recording it twice.
      T.keepOffline(form, "No answer from the server.");
      return;
    }
    if (fromEntry(event) && event.detail.target && event.detail.target.id === "preview") {
      var preview = document.getElementById("preview");
      if (preview) preview.classList.add("stale");
      return;
    }
    say("No connection to the server: nothing was saved. Check the connection and save again.",
      "error", fromEntry(event));
  });

  // Whether the person at this page has typed into the form (a draft restored on load alone does
  // not count: leaving then loses nothing, and Chromium refuses to ask without a gesture).
  var touched = false;
  on("input", function (event) { if (event.isTrusted) touched = true; });
  on("change", function (event) { if (event.isTrusted) touched = true; });

  window.addEventListener("beforeunload", function (event) {
    if ((touched && isNewHandForm(handForm()) && typed(handForm())) || state.pending.length) {
      // The draft and the outbox are kept anyway; asking first avoids leaving by mistake.
      event.preventDefault();
      event.returnValue = "";
    }
  });

  // --- start ---------------------------------------------------------------------------------------

  // Each entry its own id, made here: a page the browser brought back (Back, Forward, a copy
  // the service worker kept) still holds the id of the hand saved from it, and the server would
  // refuse a different hand sent under it.
  function freshEntryId() {
    var form = handForm();
    if (isNewHandForm(form) && field(form, "client_id")) field(form, "client_id").value = newId();
  }

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) freshEntryId();
  });

  function start() {
    var box = outboxEl();
    if (!box) return;
    freshEntryId();
    state.etag = box.dataset.sheetEtag || "";
    if ("serviceWorker" in navigator && box.dataset.swUrl) {
      navigator.serviceWorker.register(box.dataset.swUrl).catch(function () { /* no offline copy */ });
    }
    T.restoreDraft();
    Outbox.list(tableKey()).then(function (items) {
      state.pending = items;
      T.renderOutbox();
      if (state.pending.length && isNewHandForm(handForm())) {
        // The form is for the next hand on the server; the waiting hands come first.
        var last = state.pending[state.pending.length - 1];
        if (parseInt(handForm().dataset.number, 10) <= last.number && !typed(handForm())) {
          var sent = {};
          last.fields.forEach(function (pair) { sent[pair[0]] = pair[1]; });
          moveToDeal(handForm(), dealAfter(sent.dealer, sent.contract, last.number));
        }
      }
      T.flush();
    });
    if (box.dataset.liveUrl && window.SoloLive) {
      // Push: the sheet is asked for when the table's channel says it changed, when the page
      // is seen again, and every minute in case a message was lost; the outbox still tries
      // every 10 s. Push given up: the poll of before.
      setInterval(T.flush, POLL_MS);
      var slow = setInterval(T.poll, PUSHED_POLL_MS);
      document.addEventListener("visibilitychange", T.poll);
      window.SoloLive.start(box.dataset.liveUrl, pushed, function () {
        clearInterval(slow);
        setInterval(T.poll, POLL_MS);
      });
    } else {
      setInterval(function () { T.flush(); T.poll(); }, POLL_MS);
    }
  }

  // A message while this phone is sending its own hands: ask once they are sent.
  function pushed() {
    if (state.flushing) {
      setTimeout(pushed, 500);
      return;
    }
    T.poll();
  }

  // After htmx has set up the page (it does so on DOMContentLoaded, which a deferred script
  // precedes), so a restored draft's "change" reaches it and asks for the preview.
  function later() { setTimeout(start, 0); }
  if (document.readyState === "complete") {
    later();
  } else {
    document.addEventListener("DOMContentLoaded", later);
  }
})();
