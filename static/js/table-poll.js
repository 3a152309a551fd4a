// The table page kept fresh: the poll (the sheet asked for again, with its ETag, and put in place
// when another device changed it; asked when the table's channel says so, with push, see
// static/js/table.js), a fresh entry form when the one on the page is for a hand
// already saved and nothing is typed in it, and the connection's coming and going (when it
// returns, the outbox is sent and the sheet asked for).
(function () {
  "use strict";

  var T = window.SoloTable;
  var on = T.on, state = T.state, outboxEl = T.outboxEl, handForm = T.handForm, say = T.say;
  var Form = window.SoloEntryForm;
  var isNewHandForm = Form.isNewHandForm, typed = Form.typed;
  var refreshingForm = false; // a fresh entry form asked for after the outbox emptied

  // The sheet a poll brings (and, out of band, the totals beside Save) in place of the page's.
  function swapSheet(html) {
    if (window.htmx && document.getElementById("sheet")) {
      htmx.swap("#sheet", html, { swapStyle: "outerHTML" });
    }
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
    T.flush();
    poll();
  });
  window.addEventListener("offline", function () {
    if (handForm()) say("No connection: hands you save now are kept on this device and sent when it returns.", "warning");
  });

  // --- other devices: refresh the sheet when it changes elsewhere --------------------------------

  // One ask at a time: the connection's return and the push channel's reopening both ask at
  // once, and two sheets swapped in together left a hand's row on the page twice. A poll asked
  // for while one is out runs when it is answered, with the new ETag (so a 304).
  var polling = false, pollAgain = false;

  function poll() {
    var box = outboxEl();
    if (!box || !navigator.onLine || document.visibilityState !== "visible" || state.flushing) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = true;
    fetch(box.dataset.sheetUrl, {
      // The channel names the table, so that "nothing changed" is answered from the cache
      // (club/play/views/table_page.py, sheet_unchanged).
      headers: { "HX-Request": "true", "If-None-Match": state.etag, "X-Live-Channel": box.dataset.liveChannel || "" },
      cache: "no-store",
      credentials: "same-origin",
    }).then(function (response) {
      if (response.status !== 200) return;
      state.etag = response.headers.get("ETag") || state.etag;
      return response.text().then(function (html) {
        swapSheet(html);
        movedOnElsewhere();
      });
    }, function () { /* offline: the next poll tries again */ }).finally(function () {
      polling = false;
      if (pollAgain) {
        pollAgain = false;
        poll();
      }
    });
  }

  function movedOnElsewhere() {
    var form = handForm();
    var count = parseInt((state.etag.split("-")[1] || ""), 10);
    if (!isNewHandForm(form) || isNaN(count)) return;
    var next = count + 1 + state.pending.length;
    if (String(next) === form.dataset.number) return;
    if (!typed(form)) {
      freshFormIfUntouched();
    } else {
      say("The sheet changed on another device: it now has " + count + " hand" + (count === 1 ? "" : "s") +
        ". When you save, yours will be offered as hand " + next + ".", "warning");
    }
  }

  T.freshFormIfUntouched = freshFormIfUntouched;
  T.poll = poll;
})();
