// Pages that refresh themselves when what they show changes elsewhere (the night page while
// tables enter hands): ask the server "changed since this ETag?" when the night's channel says
// something changed (static/js/live-push.js, when the page has data-live-url) and every 30 s in
// case a message was lost, else every 15 s; it answers 304 from the cache when nothing did, else
// the page, whose main content replaces ours.
(function () {
  "use strict";

  var POLL_MS = 15000;
  var PUSHED_POLL_MS = 30000;
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

  document.addEventListener("visibilitychange", check);
  if (marker.dataset.liveUrl && window.SoloLive) {
    var every = setInterval(check, PUSHED_POLL_MS);
    window.SoloLive.start(marker.dataset.liveUrl, check, function () {
      clearInterval(every);
      setInterval(check, POLL_MS);
    });
  } else {
    setInterval(check, POLL_MS);
  }
})();
