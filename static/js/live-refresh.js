// Pages that refresh themselves when what they show changes elsewhere (the night page while
// tables enter hands): every few seconds ask the server "changed since this ETag?"; it answers
// 304 after one small query when nothing did, else the page, whose main content replaces ours.
(function () {
  "use strict";

  var POLL_MS = 15000;
  var marker = document.querySelector("[data-live-etag]");
  if (!marker) return;
  var etag = marker.dataset.liveEtag;

  function check() {
    if (document.visibilityState !== "visible" || !navigator.onLine) return;
    // Never swap the page under someone using one of its forms; the next check will.
    var active = document.activeElement;
    if (active && active.closest && active.closest("#main form")) return;
    fetch(window.location.href, {
      headers: { "X-Live-Check": "1", "If-None-Match": etag },
      cache: "no-store",
      credentials: "same-origin",
    }).then(function (response) {
      if (response.status !== 200) return;
      etag = response.headers.get("ETag") || etag;
      return response.text().then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
        var main = document.getElementById("main");
        if (!fresh || !main) return;
        var open = Array.from(main.querySelectorAll("details[open]")).map(function (d) { return d.id; });
        main.replaceChildren.apply(main, Array.from(fresh.childNodes).map(function (node) {
          return document.importNode(node, true);
        }));
        // Sections the reader had unfolded stay unfolded.
        open.forEach(function (id) {
          var details = id && document.getElementById(id);
          if (details) details.open = true;
        });
        if (window.htmx) htmx.process(main);
      });
    }, function () { /* offline: try again at the next tick */ });
  }

  setInterval(check, POLL_MS);
  document.addEventListener("visibilitychange", check);
})();
