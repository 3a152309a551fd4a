"""The table page's scripts (static/js/table.js and the table-*.js it is split into, with the entry
form's and the outbox's storage) listen once per event: the page's handlers go through the one
dispatcher in table-events.js (`on(type, handler)`, run in the order registered), and each
window event (online, offline, beforeunload, pageshow) has one listener. A second listener for an
event would run outside that order, and a handler registered twice would run twice. Each file stays
small enough to read whole (about 300 lines)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "js"
MAX_LINES = 300

# document.addEventListener("click", ...) / window.addEventListener('online', ...)
LITERAL = re.compile(r"\b(document|window)\.addEventListener\(\s*[\"']([^\"']+)[\"']")
# document.addEventListener(type, ...): the dispatcher, whose event is a variable
DISPATCHER = re.compile(r"\bdocument\.addEventListener\(\s*[A-Za-z_$]")
# on("click", ...) or T.on("click", ...): a handler given to the dispatcher (on the document)
THROUGH_ON = re.compile(r"(?:(?<![\w.$])|\b(?:T|SoloTable)\.)on\(\s*[\"']([^\"']+)[\"']")


def table_scripts() -> list[Path]:
    names = ["table.js", "entry-form.js", "offline-queue.js"]
    return [JS / name for name in names] + sorted(JS.glob("table-*.js"))


def doubled_listeners(texts: dict[str, str]) -> list[str]:
    """Each event type heard more than once on the document or the window across the files, and
    the dispatcher if there is not exactly one."""
    listeners: Counter[tuple[str, str]] = Counter()
    dispatchers = 0
    through_on: set[str] = set()
    for text in texts.values():
        listeners.update(LITERAL.findall(text))
        dispatchers += len(DISPATCHER.findall(text))
        through_on.update(THROUGH_ON.findall(text))
    found = [f"{target} {kind}: {n} listeners" for (target, kind), n in listeners.items() if n > 1]
    found += [
        f"document {kind}: a listener of its own besides the dispatcher's"
        for kind in sorted(through_on)
        if listeners[("document", kind)]
    ]
    if through_on and dispatchers != 1:
        found.append(f"{dispatchers} dispatchers (document.addEventListener(type, ...)), not one")
    return sorted(found)


def test_the_table_page_s_scripts_listen_once_per_event():
    scripts = table_scripts()
    assert len(scripts) >= 6  # table.js, entry-form.js, offline-queue.js and the table-*.js
    texts = {path.name: path.read_text() for path in scripts}
    assert THROUGH_ON.search(texts["table.js"])  # the scan sees the handlers
    assert doubled_listeners(texts) == []


def test_no_table_script_is_over_300_lines():
    long = [
        f"{path.name}: {n} lines"
        for path in table_scripts()
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    ]
    assert long == [], "split it by what it holds:\n" + "\n".join(long)


def test_the_check_finds_a_second_listener():
    dispatcher = "function on(type, h) { document.addEventListener(type, run); }\n"
    first = dispatcher + 'on("click", a);'
    assert doubled_listeners({"a.js": first, "b.js": 'on("click", b);'}) == []
    assert doubled_listeners({"a.js": first, "b.js": 'document.addEventListener("click", b);'}) == [
        "document click: a listener of its own besides the dispatcher's"
    ]
    online = "window.addEventListener('online', a);"
    assert doubled_listeners({"a.js": online, "b.js": online.replace("'", '"')}) == [
        "window online: 2 listeners"
    ]
    assert doubled_listeners({"a.js": dispatcher, "b.js": dispatcher + 'on("input", b);'}) == [
        "2 dispatchers (document.addEventListener(type, ...)), not one"
    ]
    # The dispatcher's on(...), also as T.on(...); not another object's on() nor turn_on().
    text = 'T.on("click", a); turn_on("x"); page.on("y", c); on("input", b)'
    assert THROUGH_ON.findall(text) == ["click", "input"]
