"""Live pages through push: channel names only the server can make, given to a page's authorised
viewer only; a save publishes one message to its table's channel and one to its night's, once it
commits, to a real local HTTP server standing in for the engine; a publish that fails leaves the
save as it is; and the polls that remain answer "nothing changed" from the cache, reading
neither the session nor the database."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from club.lib import live_push
from club.play.models import Hand
from club.play.services import table_links as link_service
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.nights import close_night

HTMX = {"HTTP_HX_REQUEST": "true"}


class Engine:
    """A stand-in for the push engine's publisher: records each POST's path and body."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict]] = []
        engine = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                engine.received.append((self.path, json.loads(body)))
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/live/pub/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def channels(self) -> list[str]:
        return [path.rsplit("/", 1)[1] for path, _ in self.received]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def engine():
    engine = Engine()
    with override_settings(LIVE_PUSH_URL=engine.url):
        yield engine
    engine.stop()


def solo(players) -> HandEntry:
    ann, bob = players[:2]
    return HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5)


def test_channel_names_are_hmacs_of_the_sites_key(table4, table5, night):
    one, two = live_push.table_channel(table4.pk), live_push.table_channel(table5.pk)
    assert re.fullmatch(r"[0-9a-f]{64}", one) and one != two
    # The same id names different channels for a table and a night, and the id is not in it.
    assert live_push.night_channel(table4.pk) != one
    with override_settings(SECRET_KEY="another site's key " * 3):
        assert live_push.table_channel(table4.pk) != one


def test_a_save_publishes_one_message_to_its_table_and_its_night_once_it_commits(
    engine, table4, table5, night, players, secretary, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        record_hand(table4, solo(players), secretary)
    assert engine.received == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert sorted(engine.channels()) == sorted(
        [live_push.table_channel(table4.pk), live_push.night_channel(night.pk)]
    )
    assert all(isinstance(body["at"], int) for _, body in engine.received)

    # A save that rolls back publishes nothing.
    engine.received.clear()
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        record_hand(table4, solo(players), secretary)
        raise RuntimeError("the save fails after its audit event")
    assert engine.received == []

    # Closing the night tells the night and each of its tables, once.
    with django_capture_on_commit_callbacks(execute=True):
        close_night(night, secretary)
    assert sorted(engine.channels()) == sorted(
        [
            live_push.table_channel(table4.pk),
            live_push.table_channel(table5.pk),
            live_push.night_channel(night.pk),
        ]
    )


def test_a_publish_that_fails_leaves_the_save_and_logs_no_channel(
    table4, players, secretary, django_capture_on_commit_callbacks, caplog
):
    engine = Engine()
    dead = engine.url
    engine.stop()  # nothing listens there any more
    with override_settings(LIVE_PUSH_URL=dead), django_capture_on_commit_callbacks(execute=True):
        record_hand(table4, solo(players), secretary)
    assert Hand.objects.filter(table=table4).count() == 1
    failures = [r for r in caplog.records if r.name == "club.lib.live_push"]
    assert len(failures) == 2  # the table's and the night's
    assert live_push.table_channel(table4.pk) not in caplog.text


def test_a_phone_gets_its_own_tables_channel_only(engine, client, table4, table5, secretary):
    links = link_service.night_links(table4.night, secretary)
    page = client.get(reverse("link_table", args=[links[table4.pk].token])).content.decode()
    mine, theirs = live_push.table_channel(table4.pk), live_push.table_channel(table5.pk)
    assert f'data-live-url="/live/sub/{mine}"' in page and f'data-live-channel="{mine}"' in page
    assert theirs not in page and live_push.night_channel(table4.night_id) not in page
    # A made-up link is a 404 that names no channel.
    refused = client.get(reverse("link_table", args=["x" * 24]))
    assert refused.status_code == 404 and "/live/sub/" not in refused.content.decode()


def test_a_board_gives_its_channel_to_those_who_may_see_the_night_only(
    engine, client, viewer, outsider, night
):
    channel = live_push.night_channel(night.pk)
    for name in ("live_night", "night_detail"):
        url = reverse(name, args=["crown", night.pk])
        client.force_login(viewer)
        page = client.get(url)
        assert f'data-live-url="/live/sub/{channel}"' in page.content.decode()
        client.force_login(outsider)  # another club's secretary; the club is private
        refused = client.get(url)
        assert refused.status_code == 404 and channel not in refused.content.decode()
    client.force_login(viewer)
    board = client.get(reverse("live_night", args=["crown", night.pk])).content.decode()
    assert 'hx-trigger="solo-live from:body, every 30s"' in board


def test_without_an_engine_pages_poll_as_before(client, viewer, night):
    client.force_login(viewer)
    board = client.get(reverse("live_night", args=["crown", night.pk])).content.decode()
    assert 'hx-trigger="every 1s"' in board and "data-live-url" not in board


@override_settings(LIVE_MARK_SECONDS=60)
def test_the_sheets_poll_answers_from_the_cache_until_the_night_changes(
    client,
    table4,
    table5,
    players,
    secretary,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    token = link_service.night_links(table4.night, secretary)[table4.pk].token
    url = reverse("link_table", args=[token])
    page = client.get(url).content.decode()
    etag = re.search(r'data-sheet-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    channel = live_push.table_channel(table4.pk)
    ask = {**HTMX, "HTTP_IF_NONE_MATCH": etag, "HTTP_X_LIVE_CHANNEL": channel}
    with django_assert_num_queries(0):
        same = client.get(url, **ask)
    assert same.status_code == 304 and same["ETag"] == etag
    # The session was not read: the answer does not vary by cookie.
    assert "Cookie" not in same.get("Vary", "")
    # Another table's channel names another mark: no cached answer for this sheet's ETag.
    other = {**ask, "HTTP_X_LIVE_CHANNEL": live_push.table_channel(table5.pk)}
    assert client.get(url, **other).status_code == 304  # through the database, still unchanged

    with django_capture_on_commit_callbacks(execute=True):
        record_hand(table4, solo(players), secretary)
    changed = client.get(url, **ask)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed["ETag"].startswith('"open-1-')  # the sheet with its one hand
    # The fresh ETag is the new mark.
    with django_assert_num_queries(0):
        again = client.get(url, **{**ask, "HTTP_IF_NONE_MATCH": changed["ETag"]})
    assert again.status_code == 304


@override_settings(LIVE_MARK_SECONDS=60)
def test_a_member_polling_the_sheet_gets_the_cached_answer_too(
    client, scorer, table4, django_assert_num_queries
):
    client.force_login(scorer)
    url = reverse("table_detail", args=["crown", table4.pk])
    first = client.get(url, **HTMX, HTTP_X_LIVE_CHANNEL=live_push.table_channel(table4.pk))
    ask = {
        **HTMX,
        "HTTP_IF_NONE_MATCH": first["ETag"],
        "HTTP_X_LIVE_CHANNEL": live_push.table_channel(table4.pk),
    }
    with django_assert_num_queries(0):
        assert client.get(url, **ask).status_code == 304
