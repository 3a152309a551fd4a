"""The password check and the signed-in user's read (club.clubs.services.auth.MemberBackend): a
member signs in
through the log-in form and stays signed in; a session signed in before this backend (it names
Django's ModelBackend) still signs its member in; a wrong password is checked once, not once a
backend; an inactive member's session signs nobody in; the user's read is compiled once."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.db.models.sql.compiler import SQLCompiler
from django.urls import reverse

from club.clubs.services.auth import MemberBackend

pytestmark = pytest.mark.django_db

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _log_in(client, username, password):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR="203.0.113.7"
    )


def test_a_member_signs_in_through_the_form_and_stays_signed_in(client, club, secretary):
    assert _log_in(client, "sec", "pw-sec").status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "club.clubs.services.auth.MemberBackend"
    page = client.get(reverse("club", args=[club.slug]))
    assert page.wsgi_request.user == secretary


def test_a_session_signed_in_before_still_signs_its_member_in(client, club, secretary):
    client.force_login(secretary, backend=MODEL_BACKEND)
    assert client.session[BACKEND_SESSION_KEY] == MODEL_BACKEND
    page = client.get(reverse("club", args=[club.slug]))
    assert page.wsgi_request.user == secretary


@pytest.mark.parametrize("username", ["sec", "nobody-of-that-name"])
def test_a_wrong_password_is_checked_once(client, secretary, username):
    checked = mock.patch.object(
        ModelBackend, "authenticate", autospec=True, side_effect=ModelBackend.authenticate
    )
    with checked as check:
        response = _log_in(client, username, "wrong")
    assert response.status_code == 200 and b"correct username and password" in response.content
    assert check.call_count == 1


def test_an_inactive_members_session_signs_nobody_in(client, club, secretary):
    client.force_login(secretary)
    secretary.is_active = False
    secretary.save()
    page = client.get(reverse("club", args=[club.slug]))
    assert not page.wsgi_request.user.is_authenticated


def test_the_user_is_read_by_one_query_compiled_once(secretary, django_assert_num_queries):
    backend = MemberBackend()
    assert backend.get_user(secretary.pk) == secretary
    compiling = mock.patch.object(SQLCompiler, "as_sql", side_effect=AssertionError("compiled"))
    with compiling, django_assert_num_queries(1):
        assert backend.get_user(secretary.pk) == secretary
    assert backend.get_user(-1) is None
