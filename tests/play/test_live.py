"""The live night board: every table's progress, the running nets and the settle-up against the
scoring core; the cheap "nothing changed" answers (204 for htmx, 304 for an ETag); who may see it;
and a fixed number of queries whatever the number of tables and hands."""

from __future__ import annotations

import datetime as dt
import html as html_lib
import re

import pytest
from django.db import transaction
from django.urls import reverse

import scoring
from club.clubs.models import Player
from club.lib import live_marks
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import delete_hand, record_hand, update_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night

HOYLE = scoring.preset("hoyle")
HTMX = {"HTTP_HX_REQUEST": "true"}


def live_url(night) -> str:
    return reverse("live_night", args=["crown", night.pk])


def text(response) -> str:
    html = response.content.decode()
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def pounds(pence: int, signed: bool = True) -> str:
    sign = "-" if pence < 0 else ("+" if signed and pence > 0 else "")
    return f"{sign}£{abs(pence) // 100}.{abs(pence) % 100:02d}"


def revision_of(response) -> str:
    return re.search(r'data-revision="([0-9a-f]+)"', response.content.decode()).group(1)


def play(night, secretary, hands_per_table: int) -> dict[str, int]:
    """Enter hands at every table of the night; return each player's net by the scoring core."""
    nets: dict[str, int] = {}
    for table in night.tables.prefetch_related("seats__player"):
        seats = [s.player for s in table.seats.all()]
        names = [p.name for p in seats]
        for n in range(1, hands_per_table + 1):
            dealer_name = scoring.table.dealer_for(names, 0, n)
            playing = scoring.table.players_in_hand(names, dealer_name, HOYLE)
            by_name = {p.name: p for p in seats}
            declarer = playing[n % len(playing)]
            tricks = (n * 3) % 14
            record_hand(
                table,
                HandEntry(
                    dealer=by_name[dealer_name],
                    contract="solo",
                    declarer=by_name[declarer],
                    tricks=tricks,
                ),
                secretary,
            )
            result = scoring.score_hand(
                scoring.Hand(players=playing, contract="solo", declarer=declarer, tricks=tricks),
                HOYLE,
            )
            for name, amount in result.amounts.items():
                nets[name] = nets.get(name, 0) + amount
    return nets


def test_the_board_shows_progress_nets_and_settle_up_as_the_core_has_them(
    client, viewer, secretary, night, players
):
    nets = play(night, secretary, 3)
    client.force_login(viewer)
    response = client.get(live_url(night))
    assert response.status_code == 200
    page = text(response)
    assert "6 hands entered" in page
    html = response.content.decode()
    for table in night.tables.all():
        card = re.search(
            rf'<article class="card live-table" id="live-table-{table.pk}">(.*?)</article>',
            html,
            re.S,
        ).group(1)
        card_text = html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", card)))
        last = table.hands.order_by("-number").first()
        assert "3 hands" in card_text
        assert f"Hand 3: Solo by {last.declarer.name}" in card_text
    nets_table = re.search(r'<section class="card" id="nets">(.*?)</section>', html, re.S).group(1)
    for name, net in nets.items():
        row = re.search(
            rf"<tr>\s*<td>(?:<a[^>]*>)?{name}(?:</a>)?</td>(.*?)</tr>", nets_table, re.S
        )
        assert pounds(net) in html_lib.unescape(row.group(1)) if net else "£0.00" in row.group(1)
    for payer, payee, amount in scoring.settle_up(nets):
        assert f"{payer} pays {payee} {pounds(amount, signed=False)}" in page
    # While the night is open the board polls itself with the revision it shows.
    assert f'?since={revision_of(response)}"' in html and 'hx-trigger="every 1s"' in html


def test_nothing_changed_is_a_204_for_htmx_and_a_304_for_an_etag(
    client,
    viewer,
    secretary,
    night,
    players,
    django_assert_max_num_queries,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    ann, bob, cat, dan = players[:4]
    table = night.tables.get(number=1)
    client.force_login(viewer)
    first = client.get(live_url(night))
    rev = revision_of(first)
    assert first["ETag"] == f'"{rev}"'
    assert "no-cache" in first["Cache-Control"]
    # The board polls every second: while its revision is the night's mark in the cache, the
    # answer reads neither the session nor the database.
    with django_assert_num_queries(0):
        same = client.get(live_url(night) + f"?since={rev}", **HTMX)
        not_modified = client.get(live_url(night), HTTP_IF_NONE_MATCH=f'"{rev}"')
    assert same.status_code == 204 and same.content == b""
    assert not_modified.status_code == 304 and not_modified["ETag"] == f'"{rev}"'
    # With the mark gone (expired, or another process's cache): session, user, club,
    # memberships, night, revision; still no board, and the mark is set again.
    live_marks.forget(night.pk)
    with django_assert_max_num_queries(6):
        again = client.get(live_url(night) + f"?since={rev}", **HTMX)
    assert again.status_code == 204 and live_marks.current(live_marks.board(night.pk)) == rev

    # Each kind of change, once committed, gives a new revision and a new board.
    with django_capture_on_commit_callbacks(execute=True):
        hand = record_hand(
            table, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), None
        )
    assert live_marks.current(live_marks.board(night.pk)) is None
    seen = {rev}
    changed = client.get(live_url(night) + f"?since={rev}", **HTMX)
    assert changed.status_code == 200 and "Hand 1: Solo by Bob" in text(changed)
    assert changed.content.decode().lstrip().startswith('<div id="live-board"')
    seen.add(revision_of(changed))
    with django_capture_on_commit_callbacks(execute=True):
        update_hand(hand, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=4), None, 1)
    seen.add(revision_of(client.get(live_url(night) + f"?since={rev}", **HTMX)))
    hand.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        delete_hand(hand, None)
    seen.add(revision_of(client.get(live_url(night))))
    with django_capture_on_commit_callbacks(execute=True):
        close_night(night, secretary)
    closed = client.get(live_url(night))
    seen.add(revision_of(closed))
    assert len(seen) == 5
    # A closed night's board is final and stops polling, and leaves no mark behind.
    assert "Final" in text(closed) and "hx-trigger" not in closed.content.decode()
    assert live_marks.current(live_marks.board(night.pk)) is None


def test_a_save_that_rolls_back_leaves_the_mark(client, viewer, night, players):
    ann, bob = players[:2]
    client.force_login(viewer)
    rev = revision_of(client.get(live_url(night)))
    # The night's mark is forgotten when the change commits, not when it is only attempted.
    with pytest.raises(RuntimeError), transaction.atomic():
        record_hand(
            night.tables.get(number=1),
            HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5),
            None,
        )
        raise RuntimeError("the save fails after its audit event")
    assert live_marks.current(live_marks.board(night.pk)) == rev


def test_a_wrong_revision_goes_through_the_access_checks(client, outsider, night):
    # A guessed or stale revision is no key: the outsider is refused as for any page.
    client.force_login(outsider)
    assert client.get(live_url(night) + "?since=0123456789abcdef", **HTMX).status_code == 404


@pytest.mark.parametrize(
    ("role", "public", "status"),
    [
        ("viewer", False, 200),
        ("scorer", False, 200),
        ("secretary", False, 200),
        ("outsider", False, 404),
        (None, False, 302),
        ("outsider", True, 200),
        (None, True, 200),
    ],
)
def test_public_when_the_club_is_else_members_only(
    role, public, status, request, client, club, night
):
    club.is_public = public
    club.save()
    if role:
        client.force_login(request.getfixturevalue(role))
    response = client.get(live_url(night))
    assert response.status_code == status
    if status == 302:
        assert "/accounts/login/" in response["Location"]
    if status == 404:
        assert "Ann" not in response.content.decode()


def test_another_clubs_night_is_404_under_this_club(client, secretary, outsider, night):
    client.force_login(outsider)
    assert client.get(reverse("live_night", args=["redlion", night.pk])).status_code == 404


@pytest.mark.parametrize("size", [1, 5])
def test_the_board_issues_a_fixed_number_of_queries(
    size, client, viewer, secretary, season, django_assert_max_num_queries
):
    players = [Player.objects.create(club=season.club, name=f"P{i:02d}") for i in range(4 * size)]
    night = create_night(
        season, dt.date(2026, 11, 20), [(players[4 * t : 4 * t + 4], 0) for t in range(size)]
    )
    play(night, secretary, 2 * size)
    client.force_login(viewer)
    # Session, user, club, memberships, night, revision, tables, seats, nets, last hands,
    # unconfirmed counts.
    with django_assert_max_num_queries(11):
        response = client.get(live_url(night))
    assert f"{2 * size * size} hands entered" in text(response)


def test_a_hand_keeps_the_rules_it_was_scored_under_on_the_board(
    client, viewer, secretary, night, club, players
):
    from club.clubs.services.setup import rule_set_from_preset

    ann, bob = players[:2]
    table = night.tables.get(number=1)
    record_hand(table, HandEntry(dealer=ann, contract="all_passed"), secretary)
    # The season moves to rules where all passing is a goulash; the hand stays a redeal.
    goulash = rule_set_from_preset(club, "anna-cubed", "Anna cubed")
    night.season.rule_set = goulash
    night.season.save()
    client.force_login(viewer)
    page = text(client.get(live_url(night)))
    assert "Hand 1: All passed: redeal" in page
