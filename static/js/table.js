// The table page: show only the fields the chosen contract uses; say every outcome of Save next
// to the Save button; keep a half-typed hand as a draft in the browser; keep hands saved with no
// connection in the outbox (static/js/offline-queue.js) and send them, in order, when it returns;
// refresh the sheet when another device changes it. htmx does the rest (preview, save, focus).
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

  // The entry form's fields, and moving it on to the next deal: static/js/entry-form.js.
  var Form = window.SoloEntryForm;
  var isNewHandForm = Form.isNewHandForm, field = Form.field, valueOf = Form.valueOf;
  var setValue = Form.setValue, newId = Form.newId, showFieldsFor = Form.showFieldsFor;
  var formFields = Form.formFields, typed = Form.typed, describe = Form.describe;
  var missing = Form.missing, rotationPlan = Form.rotationPlan, dealAfter = Form.dealAfter;
  var moveToDeal = Form.moveToDeal, strong = Form.strong;
  var Outbox = window.SoloOutbox;
  var POLL_MS = 10000;
  var RETRY_MS = 5000;
  var pending = []; // the outbox as last read, so a click can decide at once where a save goes
  var etag = "";
  var flushing = false;
  var refreshingForm = false; // a fresh entry form asked for after the outbox emptied
  var previewAsked = null; // the fields as they were when the preview on its way was asked for

  // One listener per event on the page: each part below registers its handler here, and they run
  // in the order registered. "change" is heard in the capture phase, before htmx (listening on
  // the form) builds the preview's request, which must carry the fields as the contract shows them.
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

  // --- drafts: a half-typed hand survives a reload -----------------------------------------------

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
  on("change", function (event) {
    markPreviewStale(event);
    if (event.target.form && event.target.form.id === "hand-form") keepDraft();
  });
  on("input", function (event) {
    if (event.target.form && event.target.form.id === "hand-form") keepDraft();
  });

  function markPreviewStale(event) {
    if (!event.target.form || event.target.form.id !== "hand-form") return;
    var preview = document.getElementById("preview");
    if (preview) preview.classList.add("stale");
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

  // --- saving: online through htmx, offline into the outbox --------------------------------------

  function keepOffline(form, reason) {
    var problem = missing(form);
    if (problem) {
      say(reason + " This hand is not complete, so nothing was kept yet: " + problem, "error");
      return;
    }
    var number = parseInt(form.dataset.number, 10);
    var item = {
      id: field(form, "client_id").value || newId(),
      url: form.getAttribute("action"),
      number: number,
      fields: formFields(form),
      summary: describe(form),
      at: Date.now(),
    };
    item.fields.forEach(function (pair) { if (pair[0] === "client_id") pair[1] = item.id; });
    var coming = dealAfter(valueOf(form, "dealer"), valueOf(form, "contract"), number);
    Outbox.add(tableKey(), item).then(function (items) {
      pending = items;
      dropDraft();
      moveToDeal(form, coming);
      renderOutbox();
      say(reason + " Hand " + number + " (" + item.summary + ") is kept on this device, waiting to " +
        "send: it goes by itself when the connection returns.", "warning");
    });
  }

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
    if (!navigator.onLine || pending.length) {
      event.preventDefault();
      keepOffline(form, navigator.onLine ? "Earlier hands are still being sent." : "No connection.");
      flush();
    }
  });

  // The deal the server named in a save's answer (club/views/hand_save.py), with the trump's label
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
    if (fresh) etag = fresh;
    if (isSave(event) && xhr && xhr.getResponseHeader("X-Hand-Outcome") === "saved" &&
        xhr.getResponseHeader("HX-Reswap") === "none" && isNewHandForm(handForm())) {
      // Saved: the form stays, and moves on to the deal the server named.
      dropDraft();
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
    if (form && form.dataset.saved) dropDraft();
    if (form) showFieldsFor(form);
  });

  on("click", function (event) {
    if (event.target.closest && event.target.closest("[data-discard-draft]")) dropDraft();
  });

  on("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status >= 500 && isSave(event) && isNewHandForm(handForm())) {
      // A server error (the database busy for too long, a restart): keep the hand and send it
      // again shortly; its id makes a second arrival harmless.
      keepOffline(handForm(), "The server could not save it just now (error " + status + ").");
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
      keepOffline(form, "No answer from the server.");
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

  // --- the outbox: shown under the sheet, sent in order ------------------------------------------

  function renderOutbox() {
    var box = outboxEl();
    if (!box) return;
    var list = box.querySelector(".outbox-items");
    list.replaceChildren();
    pending.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "outbox-item" + (item.problem ? " problem" : "");
      li.dataset.id = item.id;
      var line = document.createElement("p");
      line.append(strong("Hand " + item.number), ": " + item.summary + " · ");
      var state = document.createElement("span");
      state.className = "outbox-state";
      state.textContent = item.problem ? "not sent" : "waiting to send";
      line.appendChild(state);
      li.appendChild(line);
      if (item.problem) {
        var why = document.createElement("p");
        why.className = "message error";
        why.setAttribute("role", "alert");
        why.textContent = item.problem.message;
        li.appendChild(why);
        var actions = document.createElement("div");
        actions.className = "actions";
        if (item.problem.kind === "moved-on") {
          actions.appendChild(button("Save as hand " + item.problem.next, "as-next"));
        } else if (item.problem.kind !== "deleted") {
          actions.appendChild(button("Try again", "retry"));
        }
        actions.appendChild(button("Discard", "discard", "danger"));
        li.appendChild(actions);
      }
      list.appendChild(li);
    });
    box.hidden = pending.length === 0;
  }

  function button(text, action, kind) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.dataset.outboxAction = action;
    if (kind) b.className = kind;
    return b;
  }

  on("click", function (event) {
    var b = event.target.closest && event.target.closest("[data-outbox-action]");
    if (!b) return;
    var id = b.closest(".outbox-item").dataset.id;
    var item = pending.filter(function (i) { return i.id === id; })[0];
    if (!item) return;
    var action = b.dataset.outboxAction;
    if (action === "discard") {
      if (!window.confirm("Discard hand " + item.number + " (" + item.summary + ")? It will not be saved.")) return;
      Outbox.remove(tableKey(), id).then(function (items) { pending = items; renderOutbox(); flush(); });
      return;
    }
    if (action === "as-next") {
      // Saved as another hand it is another entry: a new id (the old one may name a hand saved
      // already, from a page the browser brought back).
      var fresh = newId();
      item.fields = item.fields.map(function (pair) {
        if (pair[0] === "client_id") return [pair[0], fresh];
        if (pair[0] === "expected_number") return [pair[0], String(item.problem.next)];
        if (pair[0] === "dealer" && item.problem.dealer) return [pair[0], item.problem.dealer];
        return pair;
      });
      item.number = item.problem.next;
    }
    delete item.problem;
    Outbox.update(tableKey(), item).then(function (items) { pending = items; renderOutbox(); flush(); });
  });

  function messageIn(html, selector) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    return Array.from(doc.querySelectorAll(selector)).map(function (el) {
      return el.textContent.replace(/\s+/g, " ").trim();
    }).filter(Boolean).join(" ");
  }

  // The sheet a poll brings (and, out of band, the totals beside Save) in place of the page's.
  function swapSheet(html) {
    if (window.htmx && document.getElementById("sheet")) {
      htmx.swap("#sheet", html, { swapStyle: "outerHTML" });
    }
  }

  function send(item) {
    var body = new URLSearchParams();
    var token = csrfToken();
    item.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && token ? token : pair[1]);
    });
    return fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": token },
    });
  }

  function flush() {
    var table = tableKey();
    if (flushing || !navigator.onLine || !table) return;
    var item = pending[0];
    if (!item || item.problem) return;
    flushing = true;
    send(item).then(function (response) {
      return response.text().then(function (html) {
        var outcome = response.headers.get("X-Hand-Outcome");
        if (outcome === "saved" || outcome === "resent") {
          applyAnswer(html);
          etag = response.headers.get("X-Sheet-ETag") || etag;
          return Outbox.remove(table, item.id).then(function (items) {
            pending = items;
            renderOutbox();
            say(outcome === "resent"
              ? "Hand " + item.number + " was already saved: it is on the sheet once."
              : "Hand " + item.number + " sent and saved: " + item.summary + ".", "");
            return true;
          });
        }
        if (outcome === "moved-on") {
          applyAnswer(html);
          item.problem = {
            kind: "moved-on",
            message: messageIn(html, "#save-status .message.error"),
            next: parseInt(response.headers.get("X-Next-Number"), 10),
            dealer: response.headers.get("X-Next-Dealer"),
          };
        } else if (outcome === "invalid") {
          item.problem = {
            kind: "invalid",
            message: "The server refused it: " + messageIn(html, ".errorlist li, .errorlist.nonfield li"),
          };
        } else if (outcome === "deleted") {
          applyAnswer(html);
          item.problem = { kind: "deleted", message: messageIn(html, "#save-status .message.error") };
        } else if (outcome === "closed") {
          item.problem = { kind: "closed", message: messageIn(html, ".message.warning, .message.error") };
        } else if (response.status >= 500) {
          setTimeout(flush, RETRY_MS * 3); // the server is struggling: wait, then send it again
          return false;
        } else {
          item.problem = {
            kind: "error",
            message: response.status === 403
              ? "Not allowed: log in again (or open the table link again), then try again."
              : "The server answered with error " + response.status + ": try again in a moment.",
          };
        }
        return Outbox.update(table, item).then(function (items) {
          pending = items;
          renderOutbox();
          return false;
        });
      });
    }, function () {
      setTimeout(flush, RETRY_MS); // still no connection
      return false;
    }).then(function (sent) {
      flushing = false;
      if (sent && pending.length) {
        flush();
      } else if (sent) {
        freshFormIfUntouched();
      }
    }, function () {
      flushing = false;
    });
  }

  function freshFormIfUntouched() {
    var form = handForm();
    var box = outboxEl();
    if (isNewHandForm(form) && !typed(form) && box && window.htmx) {
      refreshingForm = true;
      var note = document.getElementById("save-status");
      var kept = note ? Array.from(note.children) : [];
      htmx.ajax("GET", box.dataset.formUrl, { target: "#entry", swap: "outerHTML" })
        .finally(function () {
          refreshingForm = false;
          // What the last send said stays beside Save on the fresh form.
          var fresh = document.getElementById("save-status");
          if (fresh && fresh !== note && kept.length) fresh.replaceChildren.apply(fresh, kept);
        });
    }
  }

  on("htmx:beforeSwap", function (event) {
    // The scorer started typing while the fresh form was on its way: keep what they typed.
    var target = event.detail.target;
    if (refreshingForm && target && target.id === "entry" && typed(handForm())) {
      event.detail.shouldSwap = false;
    }
  });

  window.addEventListener("online", function () {
    say("", "", false);
    flush();
    poll();
  });
  window.addEventListener("offline", function () {
    if (handForm()) say("No connection: hands you save now are kept on this device and sent when it returns.", "warning");
  });

  // --- other devices: refresh the sheet when it changes elsewhere --------------------------------

  function poll() {
    var box = outboxEl();
    if (!box || !navigator.onLine || document.visibilityState !== "visible" || flushing) return;
    fetch(box.dataset.sheetUrl, {
      headers: { "HX-Request": "true", "If-None-Match": etag },
      cache: "no-store",
      credentials: "same-origin",
    }).then(function (response) {
      if (response.status !== 200) return;
      etag = response.headers.get("ETag") || etag;
      return response.text().then(function (html) {
        swapSheet(html);
        movedOnElsewhere();
      });
    }, function () { /* offline: the next poll tries again */ });
  }

  function movedOnElsewhere() {
    var form = handForm();
    var count = parseInt((etag.split("-")[1] || ""), 10);
    if (!isNewHandForm(form) || isNaN(count)) return;
    var next = count + 1 + pending.length;
    if (String(next) === form.dataset.number) return;
    if (!typed(form)) {
      freshFormIfUntouched();
    } else {
      say("The sheet changed on another device: it now has " + count + " hand" + (count === 1 ? "" : "s") +
        ". When you save, yours will be offered as hand " + next + ".", "warning");
    }
  }

  // Whether the person at this page has typed into the form (a draft restored on load alone does
  // not count: leaving then loses nothing, and Chromium refuses to ask without a gesture).
  var touched = false;
  on("input", function (event) { if (event.isTrusted) touched = true; });
  on("change", function (event) { if (event.isTrusted) touched = true; });

  window.addEventListener("beforeunload", function (event) {
    if ((touched && isNewHandForm(handForm()) && typed(handForm())) || pending.length) {
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
    etag = box.dataset.sheetEtag || "";
    if ("serviceWorker" in navigator && box.dataset.swUrl) {
      navigator.serviceWorker.register(box.dataset.swUrl).catch(function () { /* no offline copy */ });
    }
    restoreDraft();
    Outbox.list(tableKey()).then(function (items) {
      pending = items;
      renderOutbox();
      if (pending.length && isNewHandForm(handForm())) {
        // The form is for the next hand on the server; the waiting hands come first.
        var last = pending[pending.length - 1];
        if (parseInt(handForm().dataset.number, 10) <= last.number && !typed(handForm())) {
          var sent = {};
          last.fields.forEach(function (pair) { sent[pair[0]] = pair[1]; });
          moveToDeal(handForm(), dealAfter(sent.dealer, sent.contract, last.number));
        }
      }
      flush();
    });
    setInterval(function () { flush(); poll(); }, POLL_MS);
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
