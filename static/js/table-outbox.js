// The table page's outbox: hands saved with no connection (or with earlier hands still waiting)
// are kept on the device (static/js/offline-queue.js), shown under the sheet with their buttons
// (try again, save as the next hand, discard), and sent in order when the connection returns.
// The outbox as last read is SoloTable.state.pending, so a click can decide at once where a save
// goes.
(function () {
  "use strict";

  var T = window.SoloTable;
  var on = T.on, state = T.state, outboxEl = T.outboxEl, tableKey = T.tableKey, say = T.say;
  var csrfToken = T.csrfToken, applyAnswer = T.applyAnswer;
  var Form = window.SoloEntryForm;
  var field = Form.field, valueOf = Form.valueOf, newId = Form.newId;
  var formFields = Form.formFields, describe = Form.describe, missing = Form.missing;
  var dealAfter = Form.dealAfter, moveToDeal = Form.moveToDeal, strong = Form.strong;
  var Outbox = window.SoloOutbox;
  var RETRY_MS = 5000;

  // --- saving offline: into the outbox -----------------------------------------------------------

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
      state.pending = items;
      T.dropDraft();
      moveToDeal(form, coming);
      renderOutbox();
      say(reason + " Hand " + number + " (" + item.summary + ") is kept on this device, waiting to " +
        "send: it goes by itself when the connection returns.", "warning");
    });
  }

  // --- the outbox: shown under the sheet, sent in order ------------------------------------------

  function renderOutbox() {
    var box = outboxEl();
    if (!box) return;
    var list = box.querySelector(".outbox-items");
    list.replaceChildren();
    state.pending.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "outbox-item" + (item.problem ? " problem" : "");
      li.dataset.id = item.id;
      var line = document.createElement("p");
      line.append(strong("Hand " + item.number), ": " + item.summary + " · ");
      var label = document.createElement("span");
      label.className = "outbox-state";
      label.textContent = item.problem ? "not sent" : "waiting to send";
      line.appendChild(label);
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
    box.hidden = state.pending.length === 0;
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
    var item = state.pending.filter(function (i) { return i.id === id; })[0];
    if (!item) return;
    var action = b.dataset.outboxAction;
    if (action === "discard") {
      if (!window.confirm("Discard hand " + item.number + " (" + item.summary + ")? It will not be saved.")) return;
      Outbox.remove(tableKey(), id).then(function (items) { state.pending = items; renderOutbox(); flush(); });
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
    Outbox.update(tableKey(), item).then(function (items) { state.pending = items; renderOutbox(); flush(); });
  });

  function messageIn(html, selector) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    return Array.from(doc.querySelectorAll(selector)).map(function (el) {
      return el.textContent.replace(/\s+/g, " ").trim();
    }).filter(Boolean).join(" ");
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
    if (state.flushing || !navigator.onLine || !table) return;
    var item = state.pending[0];
    if (!item || item.problem) return;
    state.flushing = true;
    send(item).then(function (response) {
      return response.text().then(function (html) {
        var outcome = response.headers.get("X-Hand-Outcome");
        if (outcome === "saved" || outcome === "resent") {
          applyAnswer(html);
          state.etag = response.headers.get("X-Sheet-ETag") || state.etag;
          return Outbox.remove(table, item.id).then(function (items) {
            state.pending = items;
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
          state.pending = items;
          renderOutbox();
          return false;
        });
      });
    }, function () {
      setTimeout(flush, RETRY_MS); // still no connection
      return false;
    }).then(function (sent) {
      state.flushing = false;
      if (sent && state.pending.length) {
        flush();
      } else if (sent) {
        T.freshFormIfUntouched(); // table-poll.js
      }
    }, function () {
      state.flushing = false;
    });
  }

  T.keepOffline = keepOffline;
  T.renderOutbox = renderOutbox;
  T.flush = flush;
})();
