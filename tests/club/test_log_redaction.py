"""No token reaches the logs: for every token URL, a 404 (a token nobody has, a path under it
that does not exist) and a 500 (the server failing on it, with the URL in the error's own
message) leave the token out of every line the app's log handler writes: the request line,
Django's "Not Found" and "Internal Server Error" lines and the traceback. Runserver's and
gunicorn's own access lines are redacted by a filter on their loggers."""

from __future__ import annotations

import io
import logging

import pytest
from django.test import Client

from club.log_redaction import OWN_HANDLERS, RedactTokens, redact

pytestmark = pytest.mark.django_db

TOKEN = "SeCrEt0ToKeN0abcdefghijklmnop"
TOKEN_URLS = [
    f"/t/{TOKEN}/",
    f"/t/{TOKEN}/hands/",
    f"/t/{TOKEN}/hands/7/edit/",
    f"/t/{TOKEN}/pay/3/",
    f"/k/{TOKEN}/",
    f"/k/{TOKEN}/open/",
    f"/c/crown/door/{TOKEN}/",
    f"/c/crown/owed/{TOKEN}/",
    f"/c/crown/owed/{TOKEN}/3/pay/",
    f"/c/crown/unsubscribe/{TOKEN}/",
    f"/c/crown/claim/{TOKEN}/",
    f"/accounts/reset/MQ/{TOKEN}/",
    f"/invitations/{TOKEN}/",
    f"/t/{TOKEN}/no/such/page/",  # not routed: the request line would carry the path
]


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
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.club.test_log_redaction.FailOnRequest"]


@pytest.mark.parametrize("url", TOKEN_URLS)
def test_a_404_on_a_token_url_leaves_no_token_in_the_log(url, club, console):
    client = Client()
    response = client.get(url)
    if response.status_code == 405:  # a URL that only takes a form
        response = client.post(url)
    # Django's password reset answers a bad link with a page saying so.
    assert response.status_code in ({200} if "/reset/" in url else {404, 410})
    written = console.getvalue()
    assert written.strip(), "the request was logged"
    assert TOKEN not in written
    assert "<token>" in written or "<str:token>" in written


@pytest.mark.parametrize("url", TOKEN_URLS)
def test_a_500_on_a_token_url_leaves_no_token_in_the_log_nor_its_traceback(
    url, club, console, failing
):
    response = Client(raise_request_exception=False).get(
        url + "?next=" + url.replace("/", "%2F"), HTTP_X_TEST_FAIL="1"
    )
    assert response.status_code == 500
    written = console.getvalue()
    assert "Internal Server Error" in written and "Traceback" in written
    assert "RuntimeError: the server failed on" in written
    assert TOKEN not in written


def test_a_json_log_line_leaves_no_token_either(club, console, failing):
    from club.request_log import JsonFormatter

    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    old, handler.formatter = handler.formatter, JsonFormatter()
    try:
        Client(raise_request_exception=False).get(f"/t/{TOKEN}/", HTTP_X_TEST_FAIL="1")
    finally:
        handler.formatter = old
    written = console.getvalue()
    assert '"error": "Traceback' in written and TOKEN not in written


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
        logger.warning('"%s" %s', f"GET /c/crown/unsubscribe/{TOKEN}/ HTTP/1.1", 500)
    finally:
        logger.removeHandler(handler)
        logger.level = level
    assert TOKEN not in written.getvalue()
    assert "GET /k/<token>/ HTTP/1.1" in written.getvalue()


def test_what_is_not_a_token_is_left_alone():
    kept = [
        "POST /t/<str:token>/hands/ 200 41.7ms club=crown",
        "GET /c/crown/nights/12/ 200",
        "GET /c/crown/claim/ 200",
        "GET /invitations/12/accept/ 302",
        "GET /accounts/password_reset/done/ 200",
    ]
    assert [redact(line) for line in kept] == kept
