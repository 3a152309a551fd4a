"""Error tracking (Sentry) sends nothing secret or personal: the SDK is started as the settings
start it (club.operations.logs.error_tracking.start) and a transport that keeps the envelopes
instead of
sending them, so what is checked is what would leave the server."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlencode
from wsgiref.util import setup_testing_defaults

import pytest
import sentry_sdk
from django.contrib.auth.models import User
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from sentry_sdk.transport import Transport

from club.operations.logs import error_tracking
from club.operations.logs.log_redaction import decoded

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "SeCrEt0ToKeN0abcdefghijklmnop"
EMAIL = "zebedee.quill@mailbox.test"
USERNAME = "zebedee.quill"
COOKIE = "c00k1e0value0abcdefghijklmnopq"
BEARER = "b3arer0value0abcdefghijklmnopqrs"


class KeptEnvelopes(Transport):
    def __init__(self, options=None):
        super().__init__(options)
        self.events: list[dict] = []

    def capture_envelope(self, envelope):
        for item in envelope.items:
            if item.type in {"event", "transaction"}:
                self.events.append(json.loads(item.payload.get_bytes()))


@pytest.fixture
def sentry():
    kept = KeptEnvelopes()
    error_tracking.start("https://public@sentry.invalid/1", "test", transport=kept)
    try:
        with sentry_sdk.isolation_scope():
            yield kept
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.init()  # no DSN: the SDK's patches stay, doing nothing


def secret_in(text: str, *more: str) -> list[str]:
    """What the text holds of the secrets and personal data (read decoded, in any case)."""
    text = decoded(text).lower()
    return [s for s in (TOKEN[1:], EMAIL, "zebedee", COOKIE, BEARER, *more) if s.lower() in text]


class FailOnRequest:
    """A server that reads the database, logs a warning and an error on this request, then fails,
    the address in all four and the token in the last three."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.headers.get("X-Test-Fail"):
            User.objects.filter(email=EMAIL).exists()  # a statement with the address
            log = logging.getLogger("club.views")
            log.warning("opening %s for %s", request.path, EMAIL)  # a breadcrumb
            log.error("mail to %s about %s failed", EMAIL, request.get_full_path())  # an event
            raise RuntimeError(f"the server failed on {request.get_full_path()} for {EMAIL}")
        return self.get_response(request)


def _wsgi_post(path: str, query: str, form: dict[str, str], **headers: str) -> tuple[str, dict]:
    """The request as gunicorn hands it to the app (through Django's WSGIHandler, which the SDK
    wraps to read the request): the status and the response's headers."""
    body = urlencode(form).encode()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": unquote(path),  # the server decodes the path; the query stays as sent
        "QUERY_STRING": query,
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "SERVER_NAME": "testserver",
        **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()},
    }
    setup_testing_defaults(environ)
    answer: dict = {}

    def start_response(status, response_headers, exc_info=None):
        answer.update(status=status, headers=dict(response_headers))

    # As Django's test client does: the test's own connection stays open (its transaction).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        b"".join(WSGIHandler()(environ, start_response))
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return answer["status"], answer["headers"]


@pytest.mark.django_db
def test_an_error_on_a_token_url_reaches_sentry_without_token_address_cookie_or_user(
    sentry, settings, club, django_user_model
):
    settings.MIDDLEWARE = [
        *settings.MIDDLEWARE,
        "tests.operations.test_error_tracking.FailOnRequest",
    ]
    user = django_user_model.objects.create_user(USERNAME, email=EMAIL, password="pw")
    signed_in = Client()
    signed_in.force_login(user)
    session = signed_in.cookies["sessionid"].value
    status, headers = _wsgi_post(
        f"/t/%{ord(TOKEN[0]):X}{TOKEN[1:]}/hands/",
        f"next=%252Ft%252F{TOKEN}%252F&email={EMAIL.replace('@', '%40')}",
        {"email": EMAIL, "token": TOKEN, "note": "a body"},
        Cookie=f"sessionid={session}; tracking={COOKIE}",
        Authorization=f"Bearer {BEARER}",
        Referer=f"https://solo.example.org/%74/{TOKEN}/",
        User_Agent="a phone",
        X_Test_Fail="1",
    )
    assert status.startswith("500")
    assert secret_in(json.dumps(sentry.events), session) == []
    errors = [e for e in sentry.events if e.get("exception")]
    logged = [e for e in sentry.events if e.get("logentry")]
    assert len(errors) == 1 and len(logged) == 1
    # What it is still tells what happened, where, and which request: the operator's leads.
    (error,) = errors
    (exception,) = error["exception"]["values"]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == (
        "the server failed on /t/<token>/hands/?next=/t/<token>/&email=<email> for <email>"
    )
    request = error["request"]
    assert request["url"].endswith("/t/<token>/hands/") and request["method"] == "POST"
    assert request["query_string"] == "next=/t/<token>/&email=<email>"
    assert request["headers"]["Referer"] == "https://solo.example.org/t/<token>/"
    assert request["headers"]["User-Agent"] == "a phone"
    assert not {"Cookie", "Authorization"} & set(request["headers"])
    assert not {"cookies", "data", "env"} & set(request)
    assert "user" not in error
    assert error["tags"]["request_id"] == headers["X-Request-ID"]
    assert logged[0]["logentry"]["formatted"] == (
        "mail to <email> about /t/<token>/hands/?next=/t/<token>/&email=<email> failed"
    )
    crumbs = error["breadcrumbs"]["values"]
    assert any(c.get("message") == "opening /t/<token>/hands/ for <email>" for c in crumbs)
    assert all(c["timestamp"].startswith("20") for c in crumbs)  # times, not reprs
    # Database statements are breadcrumbs too, never with their parameters.
    queries = [c for c in crumbs if c.get("category") == "query"]
    assert queries and not any("data" in c for c in queries)
    # No frame carries its local variables.
    frames = exception["stacktrace"]["frames"]
    assert frames and not any("vars" in frame for frame in frames)


def test_an_error_outside_a_request_is_scrubbed_too(sentry):
    """A background task's failure: the exception's message and a log message's arguments."""
    unsubscribe = f"https://solo.example.org/c/crown/unsubscribe/{TOKEN}/"
    logging.getLogger("club.tasks").error("results to %s failed: %s", EMAIL, unsubscribe)
    try:
        raise ValueError(f"no such address {EMAIL} for {unsubscribe}")
    except ValueError:
        sentry_sdk.capture_exception()
    assert len(sentry.events) == 2
    assert secret_in(json.dumps(sentry.events)) == []
    values = [e["exception"]["values"][0]["value"] for e in sentry.events if e.get("exception")]
    assert values == [
        "no such address <email> for https://solo.example.org/c/crown/unsubscribe/<token>/"
    ]


def _settings_process(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY_")}
    clean.update(env, DJANGO_SETTINGS_MODULE="club.settings", SECRET_KEY="x" * 50)
    code = (
        "import django; django.setup(); import sentry_sdk; c = sentry_sdk.get_client(); "
        "print(c.is_active(), c.options.get('send_default_pii'), c.options.get('environment'), "
        "getattr(c.options.get('before_send'), '__module__', None))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_error_tracking_is_on_only_with_a_dsn_and_then_with_the_scrubber():
    assert _settings_process().startswith("False")
    # A DSN on this machine's loopback: nothing is sent, as nothing fails.
    on = _settings_process(SENTRY_DSN="http://public@127.0.0.1:9/1", SENTRY_ENVIRONMENT="staging")
    assert on == "True False staging club.operations.logs.error_tracking"
