"""No token reaches the logs.

Which URLs hold a token is read from the app itself: the test walks every URL pattern the app
serves (django.urls.get_resolver(), recursively) and calls an argument a secret by its name
(SECRET_ARGUMENT); every other argument must be an integer or one of PUBLIC_ARGUMENTS, so a new
argument is classified before it can slip through. Each token URL is then built with a sample
secret and must come out of club.operations.logs.log_redaction.redact without it, however it is
spelt (percent-
encoded in parts or whole, twice, in upper case, quoted in `?next=`) and in every kind of line.

Then the real log paths, end to end: Django's request logger ("Not Found:", "Bad Request:",
"Internal Server Error:" and its traceback) through the test client, and runserver's and
gunicorn's own access lines from real servers.
"""

from __future__ import annotations

import io
import logging
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver, resolve

from club.operations.bench.entry import stop_server
from club.operations.bench.many_clubs import wait_until_up
from club.operations.logs.log_redaction import (
    OWN_HANDLERS,
    TOKEN_HEADS,
    RedactTokens,
    decoded,
    redact,
)
from tests.kits.nodes_kit import call, free_port, process_env

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "SeCrEt0ToKeN0abcdefghijklmnop"

# The rule: an argument whose name says so is a secret (a token, a key, a code, a signature, a
# password reset link's uidb64).
SECRET_ARGUMENT = re.compile(r"token|key|code|secret|sign|uid|hash|nonce|otp", re.IGNORECASE)
# Every other argument a URL takes is an integer (a row's id) or one of these.
PUBLIC_ARGUMENTS = {
    "slug": "a club's slug, in every link of its pages",
    "league": "a league's slug, in every link of its pages",
    "name": "a help page's or a help image's name",
    "id": "the admin's row id",
    "object_id": "the admin's row id",
    "content_type_id": "the admin's 'view on site' link",
    "app_label": "the admin's app index",
    "url": "the admin's catch-all (its own 404)",
}
SAMPLES = {"int": "3", "slug": "crown", "path": "1"}


def _walk(resolver: URLResolver, chain: tuple = ()):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry, (*chain, entry.pattern))
        else:
            yield (*chain, entry.pattern)


ALL_PATTERNS = list(_walk(get_resolver()))


def _arguments(chain: tuple) -> dict[str, str]:
    """Each argument's name and its converter's kind ("int", "str", "path", "slug"; "regex")."""
    found = {}
    for pattern in chain:
        converters = getattr(pattern, "converters", {})
        for name in pattern.regex.groupindex:
            kind = type(converters[name]).__name__ if name in converters else "regexConverter"
            found[name] = kind.removesuffix("Converter").lower().replace("string", "str")
    return found


def _route(chain: tuple) -> str:
    return "".join(str(pattern) for pattern in chain)


def _sample_path(route: str) -> str:
    def sample(match: re.Match[str]) -> str:
        kind, name = match["kind"] or "str", match["name"]
        if SECRET_ARGUMENT.search(name):
            return TOKEN
        return "crown" if name == "slug" else SAMPLES.get(kind, "1")

    return "/" + re.sub(r"<(?:(?P<kind>\w+):)?(?P<name>\w+)>", sample, route)


TOKEN_ROUTES = [
    _route(chain)
    for chain in ALL_PATTERNS
    if any(SECRET_ARGUMENT.search(name) for name in _arguments(chain))
]
TOKEN_URLS = [_sample_path(route) for route in TOKEN_ROUTES]


def leaked(text: str) -> bool:
    """The secret (all but its first character, in any case) is in the text, read decoded."""
    return TOKEN[1:].lower() in decoded(text).lower()


def test_every_argument_of_every_url_is_a_secret_or_known_to_be_public():
    unknown = {
        f"{_route(chain)}: {name}"
        for chain in ALL_PATTERNS
        for name, kind in _arguments(chain).items()
        if kind != "int" and not SECRET_ARGUMENT.search(name) and name not in PUBLIC_ARGUMENTS
    }
    assert not unknown, (
        "Say whether these are secrets (a name SECRET_ARGUMENT matches, and a head in "
        f"club.operations.logs.log_redaction.TOKEN_HEADS) or public "
        f"(PUBLIC_ARGUMENTS): {sorted(unknown)}"
    )
    # The walk sees the token URLs the app is known for: it cannot silently find none.
    names = {chain[-1].name for chain in ALL_PATTERNS if _route(chain) in TOKEN_ROUTES}
    assert {"link_table", "card_page", "signup_confirm", "password_reset_confirm"} <= names
    # Each sample URL is the token URL it stands for.
    assert [resolve(url).route for url in TOKEN_URLS] == TOKEN_ROUTES


def test_each_declared_head_comes_before_a_secret_the_app_serves():
    """No stale entry: each declared head comes right before a secret in some token URL."""
    prefixes = [path.partition(TOKEN)[0].strip("/").lower() for path in TOKEN_URLS]
    for head in TOKEN_HEADS:
        assert any(p == head or p.endswith("/" + head) for p in prefixes), head


def _encoded(text: str) -> str:
    return "".join(f"%{ord(c):02X}" for c in text)


def spellings(path: str) -> dict[str, str]:
    """The ways a token URL reaches a log line: as the server gets it, or quoted in another."""
    head, _, tail = path.partition(TOKEN)
    return {
        "as served": path,
        "its first character encoded": head + _encoded(TOKEN[0]) + TOKEN[1:] + tail,
        "its head encoded": "/".join(map(_encoded, head.split("/"))) + TOKEN + tail,
        "its slashes encoded": path.replace("/", "%2f"),
        "every character encoded": _encoded(path),
        "encoded twice": quote(quote(path, safe=""), safe=""),
        "in upper case": path.upper(),
        "with doubled slashes": path.replace("/", "//"),
        "with backslashes": path.replace("/", "\\"),
        "quoted in next=": "/accounts/login/?next=" + quote(path, safe=""),
        "quoted twice in next=": "/accounts/login/?next=" + quote(quote(path, safe=""), safe=""),
        "a full URL in next=": "/?a=1&next=" + quote("https://solo.example.org" + path, safe=""),
    }


LINES = [
    '10.0.0.1 - - [20/Nov/2026:21:04:11 +0000] "GET {} HTTP/1.1" 404 179 "-" "curl/8"',
    "Not Found: {}",
    '{{"level": "WARNING", "message": "Bad Request: {}", "route": "{}"}}',
    "<WSGIRequest: GET '{}'>",
    "RuntimeError: the server failed on {}.",
]
SPELLINGS = list(spellings("/t/x/"))


@pytest.mark.parametrize("url", TOKEN_URLS, ids=TOKEN_ROUTES)
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_token_url_the_app_serves_is_redacted_however_it_is_spelt(url, spelling):
    """A URL pattern added with a token argument is a new case here: unless its head is in
    club.operations.logs.log_redaction.TOKEN_HEADS, redact() leaves its secret in the line and this
    fails (tried
    with `path("gift/<str:token>/", ...)` added to the URLconf: all twelve spellings failed). An
    argument named otherwise fails the test above until it is classified."""
    path = spellings(url)[spelling]
    for line in LINES:
        written = redact(line.format(path, path))
        assert not leaked(written), written
        assert "<token>" in written, written


def test_what_is_not_a_token_is_left_alone():
    kept = [
        "POST /t/<str:token>/hands/ 200 41.7ms club=crown",
        "GET /c/crown/nights/12/ 200",
        "GET /c/crown/claim/ 200",
        "GET /c/crown/claim/?next=%2Fc%2Fcrown%2F 200",
        "GET /c/crown/hands/4/confirm/ 200",
        "GET /invitations/12/accept/ 302",
        "GET /accounts/password_reset/done/ 200",
        "GET /accounts/reset/done/ 200",
        "GET /c/crown/arrivals/door/ 200",
        "GET /c/crown/setup/cards/print.pdf 200",
        '"GET /static/club/t.css HTTP/1.1" 304 0',
    ]
    assert [redact(line) for line in kept] == kept


def test_a_redacted_line_stays_one_line_and_redacting_again_changes_nothing():
    line = '"GET /t/%0A%22x/?next=%252Fk%252F' + TOKEN + '%0Aforged HTTP/1.1" 404'
    once = redact(line)
    assert "\n" not in once and once.count('"') == 2 and not leaked(once)
    assert redact(once) == once


# --- the real log paths -----------------------------------------------------------------------


class FailOnRequest:
    """A server that fails on this request, with the URL in its error's message."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.headers.get("X-Test-Fail"):
            raise RuntimeError(f"the server failed on {request.get_full_path()}")
        return self.get_response(request)


@pytest.fixture
def console():
    """What the app's own log handler (settings.LOGGING's console) writes."""
    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    written = io.StringIO()
    old = handler.setStream(written)
    yield written
    handler.setStream(old)


@pytest.fixture
def failing(settings):
    settings.MIDDLEWARE = [
        *settings.MIDDLEWARE,
        "tests.operations.test_log_redaction.FailOnRequest",
    ]


URLS_UNDER_TEST = [*TOKEN_URLS, f"/t/{TOKEN}/no/such/page/"]  # the last one not routed


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS_UNDER_TEST)
def test_a_refused_token_url_leaves_no_token_in_the_log(url, club, console):
    client = Client()
    response = client.get(url)
    if response.status_code == 405:  # a URL that only takes a form
        response = client.post(url)
    # A token nobody has: not found, gone, a page saying the link is wrong (400, or 200 for
    # Django's password reset).
    assert response.status_code in {200, 400, 404, 410}
    written = console.getvalue()
    assert written.strip(), "the request was logged"
    assert not leaked(written)
    assert "<token>" in written or "<str:token>" in written


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS_UNDER_TEST)
def test_a_500_on_a_token_url_leaves_no_token_in_the_log_nor_its_traceback(
    url, club, console, failing
):
    spelt = spellings(url)
    query = "?next=" + spelt["encoded twice"] + "&back=" + quote(spelt["its head encoded"])
    response = Client(raise_request_exception=False).get(url + query, HTTP_X_TEST_FAIL="1")
    assert response.status_code == 500
    written = console.getvalue()
    assert "Internal Server Error" in written and "Traceback" in written
    assert "RuntimeError: the server failed on" in written
    assert not leaked(written)


@pytest.mark.django_db
def test_djangos_own_lines_on_an_encoded_token_url_leave_the_token_out(club, console):
    """The test client decodes the path as a WSGI server does: Django reports what it served."""
    client = Client()
    for url, status in [(f"/t/{TOKEN}/", 404), (f"/signup/confirm/{TOKEN}/", 404)]:
        for spelling in ("its first character encoded", "its head encoded", "its slashes encoded"):
            assert client.get(spellings(url)[spelling]).status_code == status
    written = console.getvalue()
    assert not leaked(written)
    assert written.count("Not Found: /t/<token>/") == 3
    assert written.count("Not Found: /signup/confirm/<token>/") == 3


def test_a_json_log_line_leaves_no_token_either(db, club, console, failing):
    from club.operations.logs.request_log import JsonFormatter

    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    old, handler.formatter = handler.formatter, JsonFormatter()
    try:
        Client(raise_request_exception=False).get(f"/t/{TOKEN}/", HTTP_X_TEST_FAIL="1")
    finally:
        handler.formatter = old
    written = console.getvalue()
    assert '"error": "Traceback' in written and not leaked(written)


@pytest.mark.parametrize("name", OWN_HANDLERS)
def test_runserver_and_gunicorn_lines_are_redacted_on_their_own_loggers(name):
    logger = logging.getLogger(name)
    assert any(isinstance(f, RedactTokens) for f in logger.filters)
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    logger.addHandler(handler)
    level, logger.level = logger.level, logging.INFO
    try:
        # gunicorn's access line: its format and the request's atoms as the record's args.
        logger.info(
            '%(h)s "%(r)s" %(s)s', {"h": "10.0.0.1", "r": f"GET /k/{TOKEN}/ HTTP/1.1", "s": "404"}
        )
        logger.warning(
            '"%s" %s', f"GET /c/crown/unsubscribe/%{ord('S'):X}{TOKEN[1:]}/ HTTP/1.1", 500
        )
    finally:
        logger.removeHandler(handler)
        logger.level = level
    assert not leaked(written.getvalue())
    assert "GET /k/<token>/ HTTP/1.1" in written.getvalue()
    assert "GET /c/crown/unsubscribe/<token>/ HTTP/1.1" in written.getvalue()


# Requests a real server answers as token URLs (it decodes the path), logged as sent.
SENT = [
    (spellings(f"/t/{TOKEN}/")["its first character encoded"], 404),
    (spellings(f"/t/{TOKEN}/hands/")["its head encoded"], 405),  # it takes a form
    (f"/k%2F{TOKEN}%2f", 404),
    (spellings(f"/signup/confirm/{TOKEN}/")["its first character encoded"], 404),
    (spellings(f"/c/crown/owed/{TOKEN}/")["in upper case"], 404),
    (spellings(f"/c/crown/unsubscribe/{TOKEN}/")["quoted twice in next="], 200),
]
SERVERS = {
    "runserver": [sys.executable, "manage.py", "runserver", "--noreload"],
    # As docs/operators.md runs it, with its access log on (one worker is enough here).
    "gunicorn": [
        str(Path(sys.executable).with_name("gunicorn")),
        "club.wsgi",
        "--workers",
        "1",
        "--log-level",
        "warning",
        "--access-logfile",
        "-",
    ],
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("server", SERVERS)
def test_a_real_servers_log_has_no_token_in_any_spelling(server, club, tmp_path):
    port = free_port()
    command = SERVERS[server]
    command = (
        [*command, f"127.0.0.1:{port}"]
        if server == "runserver"
        else [*command, "--bind", f"127.0.0.1:{port}"]
    )
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=process_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_until_up({port: process}, log)
        referer = "https://solo.example.org" + spellings(f"/k/{TOKEN}/")["its head encoded"]
        before = log.read_text().count(' HTTP/1.1" ')  # the start-up probe's lines
        for path, status in SENT:
            assert call(port, "GET", path, headers={"Referer": referer}).status == status, path
        # A server writes its access line after the answer has gone: wait for the last one
        # before stopping it, or a busy machine loses it.
        deadline = time.monotonic() + 15
        while (
            log.read_text().count(' HTTP/1.1" ') < before + len(SENT)
            and time.monotonic() < deadline
        ):
            time.sleep(0.05)
    finally:
        stop_server(process)
    written = log.read_text()
    assert not leaked(written), written
    # The access lines, each with its request as sent, decoded and redacted.
    assert '"GET /t/<token>/ HTTP/1.1" 404' in written
    assert '"GET /t/<token>/hands/ HTTP/1.1" 405' in written
    assert '"GET /k/<token>/ HTTP/1.1" 404' in written
    assert '"GET /signup/confirm/<token>/ HTTP/1.1" 404' in written
    assert '"GET /C/CROWN/OWED/<token>/ HTTP/1.1" 404' in written
    assert '"GET /accounts/login/?next=/c/crown/unsubscribe/<token>/ HTTP/1.1" 200' in written
    if server == "gunicorn":  # its access line has the Referer
        assert written.count('"https://solo.example.org/k/<token>/"') == len(SENT)
    # Django's own lines, in the same log.
    assert "Not Found: /t/<token>/" in written
    assert "Not Found: /signup/confirm/<token>/" in written
