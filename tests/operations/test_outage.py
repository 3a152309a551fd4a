"""Without its database the app answers every page 503 with Retry-After and a short page that
says the club's record is safe, and logs one line, never a traceback; a database error while the
database answers is still a 500 with its traceback.

(Real processes and a real PostgreSQL stopped for ten seconds: tests/operations/test_outages.py.)
"""

from __future__ import annotations

import logging

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django.test import Client
from django.urls import reverse

from club.operations.views import outage

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def no_database(monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: refused')

    monkeypatch.setattr(outage, "_last_said", 0.0)
    connection.close()
    monkeypatch.setattr(connection, "ensure_connection", refused)
    monkeypatch.setattr(connection, "connect", refused)
    yield
    monkeypatch.undo()


@pytest.mark.parametrize(
    "path", ["/", "/c/crown/", "/t/some-table-token/", "/accounts/login/", "/c/crown/nights/"]
)
def test_every_page_answers_503_with_retry_after_and_no_traceback(path, club, no_database, caplog):
    with caplog.at_level(logging.INFO):
        response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response["Cache-Control"] == "no-store"
    text = response.content.decode()
    assert "The club's record is safe" in text and "Try again" in text
    assert not any(r.exc_info or r.exc_text for r in caplog.records)
    assert "Traceback" not in caplog.text and "Internal Server Error" not in caplog.text
    said = [r for r in caplog.records if r.name == "club.operations.views.outage"]
    assert len(said) == 1 and "does not answer" in said[0].getMessage()


def test_a_database_lost_in_the_middle_of_a_view_is_503_too(club, monkeypatch, caplog):
    from club.grades.views import club_home as clubs

    def lost(*args, **kwargs):
        monkeypatch.setattr(connection, "ensure_connection", refused)
        raise OperationalError("server closed the connection unexpectedly")

    def refused(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(clubs, "render", lost)
    with caplog.at_level(logging.INFO):
        response = Client(raise_request_exception=False).get(reverse("home"))
    monkeypatch.undo()
    assert response.status_code == 503 and "Retry-After" in response
    assert "Traceback" not in caplog.text


def test_a_database_error_while_the_database_answers_is_still_a_500_with_its_traceback(
    club, monkeypatch, caplog
):
    from club.grades.views import club_home as clubs

    def broken(*args, **kwargs):
        raise OperationalError("no such column: club_club.colour")

    monkeypatch.setattr(clubs, "render", broken)
    with caplog.at_level(logging.INFO):
        response = Client(raise_request_exception=False).get(reverse("home"))
    assert response.status_code == 500
    assert any(r.exc_info for r in caplog.records if r.name == "django.request")
