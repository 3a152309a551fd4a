"""The sessions are Django's database sessions (any node reads any session): a live session signs
its member in, an expired or unknown one signs nobody in and is not revived, and reading one is
one query a request."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


def test_the_app_keeps_its_sessions_in_this_store():
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


def test_a_live_session_signs_its_member_in(client, club, secretary):
    client.force_login(secretary)
    page = client.get(reverse("club", args=[club.slug]))
    assert page.wsgi_request.user == secretary


def test_an_expired_session_signs_nobody_in_and_is_not_revived(client, club, secretary):
    client.force_login(secretary)
    key = client.session.session_key
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - dt.timedelta(1))
    page = client.get(reverse("club", args=[club.slug]))
    assert not page.wsgi_request.user.is_authenticated
    store = SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None  # as Django's store: the old key is dropped


def test_an_unknown_or_missing_key_reads_as_an_empty_session(db):
    assert SessionStore("x" * 32).load() == {}
    assert SessionStore(None).load() == {}


def test_a_session_is_read_by_one_query(secretary, django_assert_num_queries):
    store = SessionStore()
    store["answer"] = 42
    store.create()
    with django_assert_num_queries(1):
        assert SessionStore(store.session_key).load() == {"answer": 42}
