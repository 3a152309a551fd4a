"""Two web nodes, two gunicorn instances on two ports (two worker processes each) over one
PostgreSQL and one Redis, as a hosted service runs them behind a balancer that sends each
request to either: the table link's write limit holds across both (30 a minute in all), a
log-in lock-out made on one holds on the other, a session made on one is good on the other, a
final sheet kept by one is served by the other, and the live board's 304s agree.

It needs PostgreSQL (DATABASE_URL; SQLite is one machine's file, which several machines cannot
share) and Redis (CACHE_URL or SOLO_TEST_REDIS_URL, see cache_kit.py); CI has both (.ci/run).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.urls import reverse

from club.play.models import NightSheetCache
from club.play.services import table_links as link_service
from club.play.services.nights import close_night
from tests.kits.cache_kit import redis_url, unique_prefix
from tests.kits.ledger_kit import play
from tests.kits.nodes_kit import Nodes, call

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def nodes(django_db_setup, tmp_path_factory):
    if connection.vendor != "postgresql":
        pytest.skip(
            "two web nodes share one PostgreSQL: set DATABASE_URL=postgres://... (CI does); "
            "SQLite is one machine's file"
        )
    log = tmp_path_factory.mktemp("nodes") / "nodes.log"
    env = {
        "CACHE_URL": redis_url(),
        "CACHE_KEY_PREFIX": unique_prefix("nodes"),  # the two nodes' own, shared by both
        "AXES_FAILURE_LIMIT": "3",
    }
    with Nodes(2, log, **env) as running:
        yield running


def member_session(user: User) -> str:
    """A logged-in session made straight in the database (the nodes keep sessions there)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def with_password(user: User, password: str) -> User:
    """The nodes run the production password hasher (the tests' own is MD5); a low iteration
    count keeps the wrong guesses quick."""
    user.password = PBKDF2PasswordHasher().encode(password, "nodes-salt", iterations=1000)
    user.save(update_fields=["password"])
    return user


def test_the_link_write_limit_holds_across_both_nodes(nodes, table4, secretary):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    url = reverse("link_create", args=[link.token])
    statuses: list[int] = []
    retry_after: list[str] = []
    barrier = threading.Barrier(8)

    def phone(index: int) -> None:
        barrier.wait(30)
        for n in range(5):  # a stuck phone: each write alternately to either node
            answer = call(
                nodes.ports[(index + n) % 2],
                "POST",
                url,
                form={"tricks": "x"},
                headers={"HX-Request": "true"},
            )
            statuses.append(answer.status)
            if answer.status == 429:
                retry_after.append(answer.headers["Retry-After"])

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    # 40 writes at once over two nodes and four processes: 30 counted, 10 refused.
    assert len(statuses) == 40
    assert statuses.count(429) == 10, statuses
    assert all(1 <= int(seconds) <= 61 for seconds in retry_after)
    # The refusal is the link's: another table's link still writes on either node.
    other = link_service.night_links(table4.night, secretary)
    other_url = reverse("link_create", args=[other[table4.night.tables.get(number=2).pk].token])
    for port in nodes.ports:
        assert call(port, "POST", other_url, form={"tricks": "x"}).status != 429


def test_a_lockout_made_on_one_node_holds_on_the_other(nodes, scorer):
    with_password(scorer, "right-password")
    first, second = nodes.ports
    login = reverse("login")
    wrong = [
        call(first, "POST", login, form={"username": "scorer", "password": "wrong"}).status
        for _ in range(3)
    ]
    assert wrong == [200, 200, 429]  # AXES_FAILURE_LIMIT=3 on the nodes: the third locks
    refused = call(second, "POST", login, form={"username": "scorer", "password": "right-password"})
    assert refused.status == 429 and "sessionid" not in refused.cookies
    assert "Too many wrong passwords" in refused.text
    assert (
        call(first, "POST", login, form={"username": "scorer", "password": "right-password"}).status
        == 429
    )


def test_a_session_made_on_one_node_is_good_on_the_other(nodes, scorer, night):
    with_password(scorer, "right-password")
    first, second = nodes.ports
    logged_in = call(
        first, "POST", reverse("login"), form={"username": "scorer", "password": "right-password"}
    )
    assert logged_in.status == 302 and "sessionid" in logged_in.cookies
    cookies = {"sessionid": logged_in.cookies["sessionid"]}
    page = reverse("night_detail", args=["crown", night.pk])
    assert call(first, "GET", page).status == 302  # not logged in: to the log-in page
    seen = call(second, "GET", page, cookies=cookies)
    assert seen.status == 200 and "scorer" in seen.text
    # Logged out on the second node: the session is gone on the first too.
    assert call(second, "POST", reverse("logout"), cookies=cookies, form={}).status == 302
    assert call(first, "GET", page, cookies=cookies).status == 302


def test_a_final_sheet_kept_by_one_node_is_served_by_the_other(
    nodes, night, table4, players, secretary, viewer
):
    ann, bob, cat, dan = players[:4]
    play(table4, secretary, bob, "solo", 6)
    play(table4, secretary, cat, "misere", 0)
    close_night(night, secretary)
    cookies = {"sessionid": member_session(viewer)}
    url = reverse("night_sheet", args=["crown", night.pk])
    first, second = nodes.ports

    made = call(first, "GET", url, cookies=cookies)
    assert made.status == 200 and made.body.startswith(b"%PDF")
    kept = NightSheetCache.objects.get(night=night)
    assert made.headers["ETag"] == f'"{kept.fingerprint}"' and bytes(kept.pdf) == made.body

    served = call(second, "GET", url, cookies=cookies)
    assert served.status == 200 and served.body == made.body  # the kept PDF, byte for byte
    assert served.headers["ETag"] == made.headers["ETag"]
    assert NightSheetCache.objects.get(night=night).rendered_at == kept.rendered_at  # not redone
    again = call(
        second, "GET", url, cookies=cookies, headers={"If-None-Match": made.headers["ETag"]}
    )
    assert again.status == 304


def test_the_live_boards_304s_agree_on_both_nodes(nodes, night, table4, players, secretary, viewer):
    cookies = {"sessionid": member_session(viewer)}
    url = reverse("live_night", args=["crown", night.pk])
    first, second = nodes.ports

    board = call(first, "GET", url, cookies=cookies)
    assert board.status == 200
    tag = board.headers["ETag"]
    assert call(second, "GET", url, cookies=cookies, headers={"If-None-Match": tag}).status == 304
    assert call(first, "GET", url, cookies=cookies, headers={"If-None-Match": tag}).status == 304
    # The board's own poll (htmx, ?since=): "nothing changed" from either node.
    since = url + "?since=" + tag.strip('"')
    for port in nodes.ports:
        assert call(port, "GET", since, cookies=cookies, headers=HTMX).status == 204

    # A hand saved through the table's link on the second node changes the board on both.
    link = link_service.night_links(night, secretary)[table4.pk]
    ann, bob = players[:2]
    saved = call(
        second,
        "POST",
        reverse("link_create", args=[link.token]),
        form={
            "dealer": ann.pk,
            "contract": "solo",
            "declarer": bob.pk,
            "tricks": 6,
            "expected_number": 1,
            "client_id": "6f1c1d5e-0d7a-4a83-9b53-2c1e6f7a9b10",
        },
        headers={"HX-Request": "true"},
    )
    assert saved.status == 200 and saved.headers.get("X-Hand-Outcome") == "saved", saved.text[:500]
    time.sleep(0.01)
    changed = [
        call(port, "GET", url, cookies=cookies, headers={"If-None-Match": tag})
        for port in nodes.ports
    ]
    assert [c.status for c in changed] == [200, 200]
    polls = [call(port, "GET", since, cookies=cookies, headers=HTMX) for port in nodes.ports]
    assert [p.status for p in polls] == [200, 200]  # both boards redraw
    new_tag = changed[0].headers["ETag"]
    assert new_tag != tag and changed[1].headers["ETag"] == new_tag
    for port in nodes.ports:
        unchanged = call(port, "GET", url, cookies=cookies, headers={"If-None-Match": new_tag})
        assert unchanged.status == 304
