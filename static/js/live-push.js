// Live pages told of a change when it happens (server-sent events from the push engine,
// club/lib/live_push.py): a page whose marker carries data-live-url subscribes to its channel
// and, at each message, asks for its part exactly as its poll does. When the subscription
// fails (no EventSource, the engine refuses it, or errors three times in a row without a
// message), the page polls as it would without push.
(function () {
  "use strict";

  var MAX_ERRORS = 3;

  // onChange: at each message, and each time the connection (re)opens, since a change may have
  // come while it was down. onFallback: once, when push is given up.
  function start(url, onChange, onFallback) {
    if (!url || !window.EventSource) {
      onFallback();
      return null;
    }
    var errors = 0;
    var gaveUp = false;
    var source = new EventSource(url);
    function giveUp() {
      if (gaveUp) return;
      gaveUp = true;
      source.close();
      onFallback();
    }
    source.onopen = function () { errors = 0; onChange(); };
    source.onmessage = function () { errors = 0; onChange(); };
    source.onerror = function () {
      errors += 1;
      // CLOSED: the engine answered with an error, EventSource will not try again by itself.
      if (source.readyState === EventSource.CLOSED || errors >= MAX_ERRORS) giveUp();
    };
    return source;
  }

  window.SoloLive = { start: start };

  // A part htmx refreshes on an event (the live board): the marker names the event, which is
  // sent on the body at each message, or every data-live-poll-ms once push is given up.
  var marker = document.getElementById("live-push");
  if (!marker || !marker.dataset.liveUrl) return;
  var event = marker.dataset.liveEvent;
  function tell() { if (window.htmx) htmx.trigger(document.body, event); }
  start(marker.dataset.liveUrl, tell, function () {
    setInterval(tell, parseInt(marker.dataset.livePollMs, 10) || 1000);
  });
})();
