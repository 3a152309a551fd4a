// The projector page: the whole field on one screen. The type shrinks (down to 60%) until the
// board fits the screen's height; a field too large for that is shown a page at a time, turning
// every few seconds. Runs again when htmx swaps in a fresh board and when the window changes.
(function () {
  "use strict";

  var MIN_SCALE = 0.6;
  var STEP = 0.05;
  var SECONDS = Number(document.body.dataset.pageSeconds || 8);
  var root = document.documentElement;
  var page = 0;
  var pages = 1;
  var perPage = 0;
  var timer = null;

  function rows() {
    var board = document.getElementById("board");
    return board ? Array.prototype.slice.call(board.querySelectorAll("tbody tr")) : [];
  }

  function fits() {
    return root.scrollHeight <= window.innerHeight;
  }

  function show() {
    var all = rows();
    all.forEach(function (row, i) {
      row.hidden = pages > 1 && Math.floor(i / perPage) !== page;
    });
    var status = document.getElementById("board-page");
    if (!status) return;
    status.hidden = pages <= 1;
    if (pages > 1) {
      var first = page * perPage + 1;
      var last = Math.min(all.length, first + perPage - 1);
      status.textContent = "Page " + (page + 1) + " of " + pages + " · rows " + first + "–" + last +
        " of " + all.length;
    }
  }

  function fit() {
    var all = rows();
    all.forEach(function (row) { row.hidden = false; });
    var scale = 1;
    root.style.setProperty("--board-scale", String(scale));
    while (!fits() && scale - STEP >= MIN_SCALE - 1e-9) {
      scale -= STEP;
      root.style.setProperty("--board-scale", scale.toFixed(2));
    }
    pages = 1;
    if (!fits() && all.length) {
      // Still too tall at the smallest readable size: as many rows a page as the screen holds,
      // with room kept for the page line.
      var status = document.getElementById("board-page");
      if (status) { status.hidden = false; status.textContent = "Page 1 of 2"; }
      var first = all[0].getBoundingClientRect();
      var rowHeight = all[all.length - 1].getBoundingClientRect().bottom - first.top;
      rowHeight /= all.length;
      var spare = root.scrollHeight - window.innerHeight;
      var room = all.length * rowHeight - spare;
      perPage = Math.max(1, Math.floor(room / rowHeight) - 1);
      pages = Math.ceil(all.length / perPage);
      if (page >= pages) page = 0;
      show();
      while (!fits() && perPage > 1) {
        perPage -= 1;
        pages = Math.ceil(all.length / perPage);
        if (page >= pages) page = 0;
        show();
      }
    } else {
      page = 0;
      show();
    }
    if (pages > 1 && timer === null) {
      timer = window.setInterval(function () {
        page = (page + 1) % pages;
        show();
      }, SECONDS * 1000);
    } else if (pages <= 1 && timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
  }

  fit();
  window.addEventListener("resize", fit);
  // afterSwap, not afterSettle: the rows are in place at once, and settling waits on a timer.
  document.addEventListener("htmx:afterSwap", fit);
})();
