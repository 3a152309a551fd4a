"""Logs a hosting operator can use: one line per request with its id, the club, the method, the
route, the status and the time; every record made during the request carries the same id (an
error's traceback too, and the error page shows it); JSON with LOG_FORMAT=json."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import path, reverse

from club import urls as app_urls
from club.operations.logs.request_log import JsonFormatter, RequestIdFilter
from club.play.services import table_links as link_service

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def boom(request):
    logging.getLogger("club.views").warning("about to fail")
    raise RuntimeError("the view failed")


def fine(request):
    return HttpResponse("fine")


# The app's URLconf with the failing view added; the app's error pages as in production (the
# 404 page links to the app's home and help, so their names must resolve).
urlpatterns = [path("boom/", boom), path("fine/", fine), *app_urls.urlpatterns]
handler500 = "club.operations.views.errors.server_error"


@pytest.fixture
def records():
    """Every record, through the same filter and JSON formatter the console handler uses."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)


def request_lines(entries: list[dict]) -> list[dict]:
    return [e for e in entries if e["logger"] == "club.requests"]


def test_one_line_per_request_with_its_id_club_route_status_and_time(
    client, secretary, night, records
):
    client.force_login(secretary)
    response = client.get(reverse("night_detail", args=["crown", night.pk]))
    assert response.status_code == 200
    (line,) = request_lines(records())
    assert line["request_id"] == response["X-Request-ID"] and len(line["request_id"]) == 32
    assert line["club"] == "crown"
    assert line["method"] == "GET"
    assert line["route"] == "/c/<slug:slug>/nights/<int:night_id>/"
    assert line["status"] == 200 and line["ms"] > 0
    assert line["level"] == "INFO"
    assert line["message"].startswith("GET /c/<slug:slug>/nights/<int:night_id>/ 200 ")
    # The next request has an id of its own.
    other = client.get("/healthz")
    assert other["X-Request-ID"] != response["X-Request-ID"]
    assert request_lines(records())[-1]["club"] == "-"


def test_a_table_links_line_names_its_club_and_never_its_token(client, table4, secretary, records):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    response = client.get(reverse("link_table", args=[link.token]))
    assert response.status_code == 200
    (line,) = request_lines(records())
    assert line["club"] == "crown" and line["route"] == "/t/<str:token>/"
    assert link.token not in json.dumps(records())


def test_an_error_carries_the_request_id_in_the_logs_and_on_its_page(settings, records):
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    request_id = response["X-Request-ID"]
    page = response.content.decode()
    assert "Something went wrong" in page and request_id in page
    entries = records()
    warning = next(e for e in entries if e["message"] == "about to fail")
    error = next(e for e in entries if e["logger"] == "django.request")
    line = request_lines(entries)[0]
    assert warning["request_id"] == error["request_id"] == line["request_id"] == request_id
    assert "RuntimeError: the view failed" in error["error"]  # the traceback, in the same line
    assert line["status"] == 500 and line["route"] == "/boom/"
    # A 404 is reported by Django after the middleware has finished: with its id all the same.
    missing = client.get("/nowhere/")
    not_found = next(e for e in records() if e["message"] == "Not Found: /nowhere/")
    assert not_found["request_id"] == missing["X-Request-ID"]
    # Once the request is over, records no longer carry its id.
    logging.getLogger("club").warning("between requests")
    assert records()[-1]["request_id"] == "-"


def test_the_proxys_request_id_is_kept_only_behind_a_trusted_proxy(settings, records):
    settings.ROOT_URLCONF = __name__
    client = Client()
    sent = {"HTTP_X_REQUEST_ID": "nginx-0123456789abcdef"}
    settings.TRUSTED_PROXY_COUNT = 0
    assert client.get("/fine/", **sent)["X-Request-ID"] != "nginx-0123456789abcdef"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client.get("/fine/", **sent)["X-Request-ID"] == "nginx-0123456789abcdef"
    forged = client.get("/fine/", HTTP_X_REQUEST_ID="bad id\nwith a new line")
    assert "\n" not in forged["X-Request-ID"] and len(forged["X-Request-ID"]) == 32


def _log_from_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """A fresh process with the production settings' logging, writing one warning."""
    clean = {k: v for k, v in os.environ.items() if k not in {"LOG_FORMAT", "DEBUG"}}
    clean.update(env, DJANGO_SETTINGS_MODULE="club.settings", SECRET_KEY="x" * 50)
    code = "import django; django.setup(); import logging; logging.getLogger('club').warning('hi')"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_log_format_json_writes_one_json_object_per_line_and_text_by_default():
    as_json = _log_from_settings(LOG_FORMAT="json")
    entry = json.loads(as_json.stderr.strip())
    assert entry["message"] == "hi" and entry["level"] == "WARNING" and entry["request_id"] == "-"
    as_text = _log_from_settings()
    assert as_text.stderr.strip().endswith("WARNING club [-] hi")
    wrong = _log_from_settings(LOG_FORMAT="xml")
    assert wrong.returncode != 0 and "LOG_FORMAT must be text or json" in wrong.stderr
