"""Tables' links: the token, the secretary's links page and QR codes, a phone scoring its table
with no account, what a link may not reach (another table's hands, another night's, another
club's: all 404), revoking and re-issuing, closed nights and vanished tables, the audit trail,
the rate limit, the second player's confirmation and the QR codes on the printed score cards."""

from __future__ import annotations

import datetime as dt
import html as html_lib
import re
import subprocess

import pytest
import segno
from django.test import Client
from django.urls import reverse

import scoring
from club.models import AuditEvent, Hand, Player, TableLink
from club.models.table_links import TOKEN_BYTES, derive_token, hash_token
from club.services import table_links as link_service
from club.services.hands import HandEntry, record_hand
from club.services.nights import close_night
from club.services.setup import create_night, rule_set_from_preset
from tests.club.cache_kit import clear_own_keys

HOYLE = scoring.preset("hoyle")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The rate limit counts in the cache: every test starts with none counted.
    clear_own_keys()
    yield
    clear_own_keys()


def text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def link_for(table, user=None) -> TableLink:
    return link_service.night_links(table.night, user)[table.pk]


def url(link: TableLink, name: str = "link_table", *args) -> str:
    return reverse(name, args=[link.token, *args])


def solo(dealer, declarer, tricks, **extra) -> dict[str, object]:
    data: dict[str, object] = {
        "dealer": dealer.pk,
        "contract": "solo",
        "declarer": declarer.pk,
        "tricks": tricks,
    }
    return data | extra


def amounts(hand: Hand) -> dict[str, int]:
    return {line.player.name: line.amount for line in hand.score_lines.select_related("player")}


def core(players, **hand) -> dict[str, int]:
    return scoring.score_hand(
        scoring.Hand(players=tuple(p.name for p in players), **hand), HOYLE
    ).amounts


# --- the token ---------------------------------------------------------------------------------


def test_the_token_is_long_unguessable_and_never_stored(table4, secretary):
    link = link_for(table4, secretary)
    token = link.token
    # 18 random-looking bytes: 144 bits, more than the 128 asked for.
    assert TOKEN_BYTES * 8 >= 128
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", token)
    row = TableLink.objects.filter(pk=link.pk).values().get()
    assert token not in str(row)
    assert row["token_hash"] == hash_token(token)
    # The token comes from the salt and the server's SECRET_KEY, not from the salt alone.
    assert derive_token(row["salt"]) == token
    assert token not in row["salt"]
    # Every table has its own link; asking again gives the same ones, not new ones.
    other = link_for(table4.night.tables.get(number=2), secretary)
    assert other.token != token
    assert link_for(table4, secretary).pk == link.pk
    assert TableLink.objects.count() == 2


def test_a_made_up_or_truncated_token_is_a_clear_404(client, table4, secretary):
    token = link_for(table4, secretary).token
    for bad in (token[:-1], token + "x", "A" * 24, "-"):
        response = client.get(f"/t/{bad}/")
        assert response.status_code == 404
        assert "This table link does not work" in text(response)


# --- the secretary's links page ----------------------------------------------------------------


def links_page(night) -> str:
    return reverse("night_links", args=["crown", night.pk])


def test_the_secretary_sees_each_tables_link_and_its_qr_code(client, secretary, night):
    client.force_login(secretary)
    response = client.get(links_page(night))
    assert response.status_code == 200
    html = response.content.decode()
    for table in night.tables.all():
        link = TableLink.objects.get(table=table, revoked_at=None)
        full = f"http://testserver/t/{link.token}/"
        assert f'href="{full}"' in html
        # The QR code on the page is the one segno draws for exactly that URL.
        drawn = segno.make(full, error="m").svg_inline(
            scale=4, border=4, omitsize=True, svgclass="qr", title=f"Table {table.number}'s link"
        )
        assert drawn.replace("<svg ", '<svg role="img" ', 1) in html
    # Issuing them is in the audit trail.
    issued = AuditEvent.objects.filter(night=night, action=AuditEvent.Action.ISSUE)
    assert sorted(issued.values_list("subject", flat=True)) == ["Table 1's link", "Table 2's link"]
    printed = client.get(reverse("night_links_print", args=["crown", night.pk]))
    assert printed.status_code == 200
    assert printed.content.decode().count('<svg role="img"') == 2
    assert "Table 1" in text(printed) and "Table 2" in text(printed)


@pytest.mark.parametrize(("role", "status"), [("scorer", 403), ("viewer", 403), ("outsider", 404)])
def test_only_a_secretary_of_the_club_gets_the_links(role, status, request, client, night):
    client.force_login(request.getfixturevalue(role))
    for name in ("night_links", "night_links_print"):
        assert client.get(reverse(name, args=["crown", night.pk])).status_code == status
    table = night.tables.first()
    for name in ("table_link_revoke", "table_link_reissue"):
        assert client.post(reverse(name, args=["crown", night.pk, table.pk])).status_code == status
    assert not TableLink.objects.exists()


def test_anonymous_visitors_are_asked_to_log_in_for_the_links(client, night):
    response = client.get(links_page(night))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not TableLink.objects.exists()


def test_the_links_of_another_clubs_night_are_404(client, outsider, other_club, night):
    from club.models import Season

    rules = rule_set_from_preset(other_club, "hoyle", "Hoyle")
    season = Season.objects.create(
        club=other_club,
        name="S",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rules,
    )
    p = [Player.objects.create(club=other_club, name=n) for n in "WXYZ"]
    theirs = create_night(season, dt.date(2026, 11, 20), [(p, 0)])
    client.force_login(outsider)
    # The outsider's own club's night, asked for under our slug, and ours under theirs.
    assert client.get(reverse("night_links", args=["crown", theirs.pk])).status_code == 404
    assert client.get(reverse("night_links", args=["redlion", night.pk])).status_code == 404


# --- a phone at the table ----------------------------------------------------------------------


def test_the_link_opens_the_tables_sheet_and_form_and_nothing_else(
    client, table4, secretary, players
):
    ann, bob = players[:2]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary)
    link = link_for(table4, secretary)
    response = client.get(url(link))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hand-form"' in html
    assert f'action="/t/{link.token}/hands/"' in html
    assert "Hand 2" in text(response)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        assert name in text(response)
    # No way to another page of the club: no link under /c/, nor to the login or admin pages.
    hrefs = re.findall(r'(?:href|hx-get|hx-post|action)="([^"]+)"', html)
    assert hrefs
    # (In-page links such as the skip link to the main content go nowhere else.)
    assert all(h.startswith((f"/t/{link.token}/", "/static/", "/help/", "#")) for h in hrefs), hrefs
    # Nor the other table's players.
    assert "Eve" not in text(response)


@pytest.mark.parametrize("role", [None, "secretary", "scorer", "viewer", "outsider"])
def test_anyone_with_the_link_scores_that_table_and_it_is_recorded_as_the_links(
    role, request, client, table4, secretary, players
):
    ann, bob, cat, dan = players[:4]
    link = link_for(table4, secretary)
    if role:
        client.force_login(request.getfixturevalue(role))
    client.post(url(link, "link_device"), {"device": "  Ann's   phone "})
    response = client.post(url(link, "link_create"), solo(ann, bob, 7, expected_number=1), **HTMX)
    assert response.status_code == 200
    assert "Hand 1 saved" in text(response)
    hand = Hand.objects.get(table=table4)
    assert hand.entered_via_id == link.pk and hand.entered_by is None
    assert not hand.awaiting_confirmation
    assert amounts(hand) == core([ann, bob, cat, dan], contract="solo", declarer="Bob", tricks=7)
    event = AuditEvent.objects.get(action=AuditEvent.Action.CREATE)
    assert (event.link_id, event.device, event.user) == (link.pk, "Ann's phone", None)
    # The night page's audit trail says it came from the table's link and which phone.
    client.force_login(secretary)
    trail = text(client.get(reverse("night_detail", args=["crown", table4.night_id])))
    assert "Table 1's link (Ann's phone) entered Table 1, hand 1" in trail


def test_without_a_token_nothing_of_the_table_is_reachable_anonymously(client, table4, players):
    ann, bob = players[:2]
    # A private club's table page is a 404 to a stranger; a save is sent to log in first.
    assert client.get(reverse("table_detail", args=["crown", table4.pk])).status_code == 404
    create = reverse("hand_create", args=["crown", table4.pk])
    response = client.post(create, solo(ann, bob, 5))
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={create}"
    assert client.get("/t/").status_code == 404
    assert not Hand.objects.exists()


def test_the_link_corrects_and_deletes_its_own_tables_hands(client, table4, secretary, players):
    ann, bob, cat, dan = players[:4]
    link = link_for(table4, secretary)
    client.post(url(link, "link_create"), solo(ann, bob, 7, expected_number=1), **HTMX)
    client.post(url(link, "link_create"), solo(bob, cat, 5, expected_number=2), **HTMX)
    first = Hand.objects.get(table=table4, number=1)
    response = client.post(
        url(link, "link_edit", first.pk), solo(ann, bob, 4, version=first.version), **HTMX
    )
    assert response.status_code == 200 and "Hand 1 corrected" in text(response)
    first.refresh_from_db()
    assert amounts(first) == core([ann, bob, cat, dan], contract="solo", declarer="Bob", tricks=4)
    second = Hand.objects.get(table=table4, number=2)
    assert client.get(url(link, "link_delete", second.pk), **HTMX).status_code == 200
    response = client.post(url(link, "link_delete", second.pk), {"version": 1}, **HTMX)
    assert response.status_code == 200
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    actions = list(
        AuditEvent.objects.filter(link=link).order_by("id").values_list("action", flat=True)
    )
    assert actions == ["create", "create", "update", "delete"]


def test_a_link_cannot_reach_another_tables_nights_or_clubs_hands(
    client, table4, table5, secretary, season, players, other_club
):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    link = link_for(table4, secretary)
    theirs = record_hand(
        table5, HandEntry(dealer=eve, contract="solo", declarer=fay, tricks=5), secretary
    )
    later = create_night(season, dt.date(2026, 11, 27), [(players[:4], 0)])
    next_week = record_hand(
        later.tables.get(),
        HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5),
        secretary,
    )
    rules = rule_set_from_preset(other_club, "hoyle", "Hoyle")
    from club.models import Season

    their_season = Season.objects.create(
        club=other_club,
        name="S",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rules,
    )
    w, x, y, z = (Player.objects.create(club=other_club, name=n) for n in "WXYZ")
    elsewhere = create_night(their_season, dt.date(2026, 11, 20), [([w, x, y, z], 0)])
    other_clubs = record_hand(
        elsewhere.tables.get(), HandEntry(dealer=w, contract="solo", declarer=x, tricks=5), None
    )
    for hand in (theirs, next_week, other_clubs):
        before = (hand.version, amounts(hand))
        for name in ("link_edit", "link_delete", "link_confirm"):
            assert client.get(url(link, name, hand.pk)).status_code == 404
            data = solo(hand.dealer, hand.declarer, 9, version=hand.version)
            response = client.post(url(link, name, hand.pk), data, **HTMX)
            assert response.status_code == 404
        hand.refresh_from_db()
        assert (hand.version, amounts(hand)) == before
    # The form and preview of the link never name another table's hand either.
    assert client.get(url(link, "link_form") + f"?hand={theirs.pk}", **HTMX).status_code == 404
    assert not AuditEvent.objects.filter(link=link).exists()


def test_rejected_input_through_the_link_gets_the_ordinary_forms_messages(
    client, scorer, table4, secretary, players
):
    ann, cat = players[0], players[2]
    link = link_for(table4, secretary)
    bad = [
        solo(ann, cat, 14, expected_number=1),
        {"dealer": ann.pk, "contract": "prop_cop", "declarer": cat.pk, "tricks": 8},
        {"dealer": ann.pk, "contract": "all_passed", "revoke_by": cat.pk, "expected_number": 1},
    ]
    member = Client()
    member.force_login(scorer)
    for data in bad:
        by_link = client.post(url(link, "link_create"), data, **HTMX)
        by_member = member.post(reverse("hand_create", args=["crown", table4.pk]), data, **HTMX)
        assert by_link.status_code == by_member.status_code == 422
        errors = re.findall(
            r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', by_link.content.decode(), re.S
        )
        assert errors
        assert errors == re.findall(
            r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', by_member.content.decode(), re.S
        )
    assert not Hand.objects.exists() and not AuditEvent.objects.filter(link=link).exists()


def test_a_long_device_name_is_refused_with_a_message(client, table4, secretary):
    link = link_for(table4, secretary)
    response = client.post(url(link, "link_device"), {"device": "x" * 41})
    assert response.status_code == 422
    assert "Keep the name to 40 characters or fewer." in text(response)
    assert client.session.get("table_link_devices") is None


# --- revoking, re-issuing, closing, removing ---------------------------------------------------


def test_revoking_makes_the_token_a_404_and_reissuing_gives_a_new_one(
    client, table4, table5, secretary, players
):
    ann, bob = players[:2]
    old = link_for(table4, secretary)
    untouched = link_for(table5, secretary)
    admin = Client()
    admin.force_login(secretary)
    night = table4.night
    revoke = reverse("table_link_revoke", args=["crown", night.pk, table4.pk])
    assert "Revoke table 1's link?" in text(admin.get(revoke))
    assert TableLink.objects.get(pk=old.pk).revoked_at is None  # asking is not doing
    assert admin.post(revoke).status_code == 302
    response = client.post(url(old, "link_create"), solo(ann, bob, 5, expected_number=1))
    assert response.status_code == 404 and "This table link does not work" in text(response)
    assert client.get(url(old)).status_code == 404
    assert client.get(url(untouched)).status_code == 200
    # Looking at the links page again does not bring table 1 back: it stays without a link.
    assert "this table's link was revoked" in text(admin.get(links_page(night)))
    assert not TableLink.objects.filter(table=table4, revoked_at=None).exists()
    admin.post(reverse("table_link_reissue", args=["crown", night.pk, table4.pk]))
    new = TableLink.objects.get(table=table4, revoked_at=None)
    assert new.token != old.token
    admin.post(reverse("table_link_reissue", args=["crown", night.pk, table4.pk]))
    newest = TableLink.objects.get(table=table4, revoked_at=None)
    assert newest.token not in (old.token, new.token)
    assert client.get(url(new)).status_code == 404
    assert client.get(url(newest)).status_code == 200
    assert not Hand.objects.exists()
    trail = list(
        AuditEvent.objects.filter(subject="Table 1's link")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert trail == ["issue", "revoke", "issue", "revoke", "issue"]


def test_after_closing_the_link_shows_the_final_sheet_and_takes_no_hands(
    client, table4, secretary, players
):
    ann, bob = players[:2]
    link = link_for(table4, secretary)
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary)
    close_night(table4.night, secretary)
    # Inside the club's correction window the sheet is provisional, then final once published.
    response = client.get(url(link))
    assert response.status_code == 200
    assert "provisional until the secretary publishes" in text(response)
    assert "final sheet" not in text(response)
    from club.services.publish import publish

    publish(table4.night, secretary)
    response = client.get(url(link))
    assert "final sheet" in text(response)
    assert 'id="hand-form"' not in response.content.decode()
    assert "Totals after 1 hand" in text(response)
    hand = Hand.objects.get()
    for posted in (
        client.post(url(link, "link_create"), solo(bob, ann, 5, expected_number=2), **HTMX),
        client.post(url(link, "link_edit", hand.pk), solo(ann, bob, 9, version=1), **HTMX),
        client.post(url(link, "link_delete", hand.pk), {"version": 1}, **HTMX),
    ):
        assert posted.status_code == 409
        assert "This night is closed" in text(posted)
    assert Hand.objects.count() == 1 and Hand.objects.get().tricks == 5


def test_a_link_of_a_removed_table_or_night_is_a_clear_404(client, night, secretary):
    from club.services.setup import delete_night

    link = link_for(night.tables.get(number=1), secretary)
    delete_night(night, secretary)
    response = client.get(url(link))
    assert response.status_code == 404
    assert "This table link does not work" in text(response)


def test_last_weeks_link_shows_last_weeks_closed_sheet_with_its_date(
    client, season, players, secretary
):
    last_week = create_night(season, dt.date(2026, 11, 13), [(players[:4], 0)])
    link = link_for(last_week.tables.get(), secretary)
    close_night(last_week, secretary)
    from club.services.publish import publish

    publish(last_week, secretary)
    create_night(season, dt.date(2026, 11, 20), [(players[:4], 0)])
    page = text(client.get(url(link)))
    assert "Fri 13 Nov 2026" in page and "final sheet" in page


# --- the rate limit ----------------------------------------------------------------------------


def test_a_stuck_phone_resending_is_stopped_with_a_clear_429(
    client, table4, secretary, players, monkeypatch
):
    from club.views import table_links as views

    monkeypatch.setattr(views, "WRITE_LIMIT", 3)
    ann, bob = players[:2]
    link = link_for(table4, secretary)
    # Previews do not count: a phone previews at every keystroke.
    for _ in range(10):
        assert client.post(url(link, "link_preview"), solo(ann, bob, 5), **HTMX).status_code == 200
    statuses = [
        client.post(
            url(link, "link_create"), solo(ann, bob, 5, expected_number=1), **HTMX
        ).status_code
        for _ in range(6)
    ]
    # The first saves; the next two are conflicts (hand 1 is in); then the limit.
    assert statuses == [200, 409, 409, 429, 429, 429]
    response = client.post(url(link, "link_create"), solo(ann, bob, 5, expected_number=2))
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert "Too many changes from this table's link" in text(response)
    htmx = client.post(url(link, "link_create"), solo(ann, bob, 5, expected_number=2), **HTMX)
    assert htmx.status_code == 429 and "nothing was saved" in htmx.content.decode()
    assert Hand.objects.count() == 1
    # Another table's link has its own count.
    other = link_for(table4.night.tables.get(number=2), secretary)
    eve, fay = players[4:6]
    assert (
        client.post(
            url(other, "link_create"), solo(eve, fay, 5, expected_number=1), **HTMX
        ).status_code
        == 200
    )


@pytest.mark.django_db  # without Redis the window is a row of the database
def test_the_window_slides(monkeypatch):
    from club.core import ratelimit

    now = [1000.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: now[0])
    assert [ratelimit.hit("k", 2, 60).allowed for _ in range(3)] == [True, True, False]
    now[0] += 30
    verdict = ratelimit.hit("k", 2, 60)
    assert not verdict.allowed and verdict.retry_after == 31
    now[0] += 31  # the first two drop out
    assert ratelimit.hit("k", 2, 60).allowed


# --- a second player confirms ------------------------------------------------------------------


@pytest.fixture
def confirming(club):
    club.confirm_table_hands = True
    club.save()
    return club


def test_with_the_setting_a_links_hand_waits_for_a_second_player(
    client, confirming, table4, secretary, players
):
    ann, bob, cat, dan = players[:4]
    link = link_for(table4, secretary)
    client.post(url(link, "link_create"), solo(ann, bob, 7, expected_number=1), **HTMX)
    hand = Hand.objects.get()
    assert hand.awaiting_confirmation
    page = client.get(url(link))
    assert "Unconfirmed" in text(page)
    # It counts in the totals already (and is shown as unconfirmed).
    expected = core([ann, bob, cat, dan], contract="solo", declarer="Bob", tricks=7)
    assert amounts(hand) == expected
    totals = re.search(r'<tfoot id="sheet-totals">(.*?)</tfoot>', page.content.decode(), re.S)
    assert f"+£0.{expected['Bob']:02d}" in html_lib.unescape(totals.group(1))
    # A member's own entry does not wait.
    record_hand(table4, HandEntry(dealer=bob, contract="solo", declarer=cat, tricks=5), secretary)
    assert not Hand.objects.get(number=2).awaiting_confirmation

    # The second player must say who they are, among those who played the hand.
    confirm = url(link, "link_confirm", hand.pk)
    assert "Who confirms?" in text(client.get(confirm, **HTMX))
    refused = client.post(confirm, {"version": hand.version}, **HTMX)
    assert refused.status_code == 422 and "Choose who confirms the hand." in text(refused)
    eve = players[4]
    refused = client.post(confirm, {"version": hand.version, "confirmer": eve.pk}, **HTMX)
    assert refused.status_code == 422
    ok = client.post(confirm, {"version": hand.version, "confirmer": dan.pk}, **HTMX)
    assert ok.status_code == 200 and "Hand 1 confirmed by Dan" in text(ok)
    hand.refresh_from_db()
    assert not hand.awaiting_confirmation
    event = AuditEvent.objects.get(action=AuditEvent.Action.CONFIRM)
    assert event.link_id == link.pk and event.after["confirmed_by"] == "Dan"
    again = client.post(confirm, {"version": hand.version, "confirmer": dan.pk}, **HTMX)
    assert again.status_code == 409 and "already confirmed" in text(again)


def test_a_correction_through_the_link_waits_again_a_members_does_not(
    client, confirming, table4, secretary, scorer, players
):
    ann, bob = players[:2]
    link = link_for(table4, secretary)
    hand = record_hand(
        table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=7), secretary
    )
    client.post(url(link, "link_edit", hand.pk), solo(ann, bob, 8, version=1), **HTMX)
    hand.refresh_from_db()
    assert hand.awaiting_confirmation and hand.tricks == 8
    member = Client()
    member.force_login(scorer)
    member.post(
        reverse("hand_edit", args=["crown", hand.pk]),
        solo(ann, bob, 6, version=hand.version),
        **HTMX,
    )
    hand.refresh_from_db()
    assert not hand.awaiting_confirmation and hand.tricks == 6


def test_the_night_cannot_close_while_hands_wait_and_a_secretary_confirms_them(
    client, confirming, table4, secretary, viewer, players
):
    ann, bob = players[:2]
    link = link_for(table4, secretary)
    client.post(url(link, "link_create"), solo(ann, bob, 7, expected_number=1), **HTMX)
    hand = Hand.objects.get()
    night = table4.night
    admin = Client()
    admin.force_login(secretary)
    detail = reverse("night_detail", args=["crown", night.pk])
    page = text(admin.get(detail))
    assert "Hands waiting for a second player (1)" in page
    assert "Table 1, hand 1 : Solo by Bob, 7 tricks" in page
    warning = text(admin.get(reverse("night_close", args=["crown", night.pk])))
    assert "1 hand entered at the tables still waits for a second player's confirmation" in warning
    response = admin.post(reverse("night_close", args=["crown", night.pk]), follow=True)
    assert "still wait for a second player's confirmation (table 1 hand 1)" in text(response)
    night.refresh_from_db()
    assert not night.is_closed
    # A viewer may not confirm.
    reader = Client()
    reader.force_login(viewer)
    confirm = reverse("hand_confirm", args=["crown", hand.pk])
    assert reader.post(confirm, {"version": hand.version, "next": "night"}).status_code == 403
    hand.refresh_from_db()
    assert hand.awaiting_confirmation
    response = admin.post(confirm, {"version": hand.version, "next": "night"}, follow=True)
    assert "Table 1, hand 1 is confirmed." in text(response)
    assert "Hands waiting" not in text(response)
    event = AuditEvent.objects.get(action=AuditEvent.Action.CONFIRM)
    assert event.user == secretary and event.link is None
    admin.post(reverse("night_close", args=["crown", night.pk]))
    night.refresh_from_db()
    assert night.is_closed


def test_the_club_setting_is_on_the_set_up_page(client, secretary, club):
    client.force_login(secretary)
    response = client.post(
        reverse("club_setup", args=["crown"]),
        {
            "name": club.name,
            "unit_kind": "money",
            "currency_symbol": "£",
            "minor_units": 100,
            "points_label": "pts",
            "confirm_table_hands": "on",
        },
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.confirm_table_hands


# --- QR codes on the printed score cards -------------------------------------------------------


def decode_pdf_qr_codes(pdf: bytes, tmp_path) -> list[str]:
    """Rasterise each page with poppler's pdftoppm and read its QR codes with zxing-cpp."""
    import zxingcpp
    from PIL import Image

    source = tmp_path / "cards.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "200", "-png", str(source), str(tmp_path / "page")], check=True
    )
    found = []
    for image in sorted(tmp_path.glob("page*.png")):
        found += [code.text for code in zxingcpp.read_barcodes(Image.open(image))]
    return found


def test_the_secretarys_score_cards_carry_each_tables_qr_code(client, secretary, night, tmp_path):
    import io

    from pypdf import PdfReader

    client.force_login(secretary)
    response = client.get(reverse("score_cards", args=["crown", night.pk]))
    assert response.status_code == 200
    links = {link.table.number: link for link in TableLink.objects.select_related("table")}
    expected = [f"http://testserver/t/{links[n].token}/" for n in (1, 2)]
    assert decode_pdf_qr_codes(response.content, tmp_path) == expected
    # Still one card a page.
    assert len(PdfReader(io.BytesIO(response.content)).pages) == 2


@pytest.mark.parametrize("who", ["viewer", "closed"])
def test_no_qr_code_for_a_viewer_or_a_closed_night(who, client, secretary, viewer, night, tmp_path):
    if who == "closed":
        close_night(night, secretary)
        client.force_login(secretary)
    else:
        client.force_login(viewer)
    response = client.get(reverse("score_cards", args=["crown", night.pk]))
    assert response.status_code == 200
    assert decode_pdf_qr_codes(response.content, tmp_path) == []
    assert not TableLink.objects.exists()


def test_a_tournament_rounds_table_cards_carry_its_tables_qr_codes(
    client, season, club, secretary, tmp_path
):
    from club.services import tournaments as tournament_service
    from tests.club.tournament_kit import field, make_tournament

    t = make_tournament(season, field(club, 8), rounds=2, hands=2, name="Winter Cup")
    tournament_service.start(t)
    client.force_login(secretary)
    response = client.get(reverse("tournament_cards_pdf", args=["crown", t.pk]) + "?round=1")
    assert response.status_code == 200
    tables = list(t.night.tables.filter(round_number=1).order_by("number"))
    links = link_service.night_links(t.night, secretary)
    expected = [f"http://testserver/t/{links[table.pk].token}/" for table in tables]
    assert decode_pdf_qr_codes(response.content, tmp_path) == expected


# --- a secretary at the table page, and the page's cost -----------------------------------------


def test_a_secretary_confirms_a_waiting_hand_from_the_table_page(
    client, confirming, table4, secretary, scorer, players
):
    ann, bob = players[:2]
    link = link_for(table4, secretary)
    client.post(url(link, "link_create"), solo(ann, bob, 7, expected_number=1), **HTMX)
    hand = Hand.objects.get()
    table_page = reverse("table_detail", args=["crown", table4.pk])
    confirm = reverse("hand_confirm", args=["crown", hand.pk])
    member = Client()
    member.force_login(scorer)
    # A scorer sees the hand is unconfirmed but may not confirm it.
    page = member.get(table_page).content.decode()
    assert "Unconfirmed" in page and confirm not in page
    assert member.post(confirm, {"version": hand.version}, **HTMX).status_code == 403
    member.force_login(secretary)
    page = member.get(table_page).content.decode()
    assert f'hx-get="{confirm}"' in page
    card = member.get(confirm, **HTMX)
    assert "Confirm hand 1" in text(card) and "Who confirms?" not in text(card)
    done = member.post(confirm, {"version": hand.version}, **HTMX)
    assert done.status_code == 200 and "Hand 1 confirmed." in text(done)
    hand.refresh_from_db()
    assert not hand.awaiting_confirmation
    assert AuditEvent.objects.get(action="confirm").user == secretary


@pytest.mark.parametrize("hand_count", [1, 12])
def test_the_links_page_issues_a_fixed_number_of_queries(
    hand_count, client, table4, secretary, players, django_assert_max_num_queries
):
    seats = players[:4]
    for n in range(hand_count):
        record_hand(
            table4,
            HandEntry(
                dealer=seats[n % 4], contract="solo", declarer=seats[(n + 1) % 4], tricks=n % 14
            ),
            secretary,
        )
    link = link_for(table4, secretary)
    # The link, the seats, the last hand (next dealer), the hands, their revokes, the score lines,
    # the totals.
    with django_assert_max_num_queries(7):
        response = client.get(url(link))
    assert f"Totals after {hand_count} hand" in text(response)


def test_the_too_many_page_leads_only_back_to_the_table(
    client, table4, secretary, players, monkeypatch
):
    from club.views import table_links as views

    monkeypatch.setattr(views, "WRITE_LIMIT", 1)
    ann, bob = players[:2]
    link = link_for(table4, secretary)
    client.post(url(link, "link_create"), solo(ann, bob, 5, expected_number=1))
    response = client.post(url(link, "link_create"), solo(ann, bob, 5, expected_number=2))
    assert response.status_code == 429
    hrefs = re.findall(r'href="([^"]+)"', response.content.decode())
    # (In-page links such as the skip link to the main content go nowhere else.)
    assert all(h.startswith((f"/t/{link.token}/", "/static/", "/help/", "#")) for h in hrefs), hrefs


def test_two_secretaries_opening_the_links_at_once_get_the_same_links(
    table4, table5, secretary, monkeypatch
):
    """The other secretary's page issues table 1's link between our look and our insert: ours
    fails on the one-live-link constraint, and we show theirs and still issue table 2's, with no
    error and no second live link."""
    theirs = TableLink.fresh(table4.pk, None)
    theirs.save()
    real = link_service._live_links
    looks = []

    def first_look_misses_theirs(night):
        looks.append(night)
        return {} if len(looks) == 1 else real(night)

    monkeypatch.setattr(link_service, "_live_links", first_look_misses_theirs)
    links = link_service.night_links(table4.night, secretary)
    assert len(looks) == 2
    assert links[table4.pk].pk == theirs.pk
    assert TableLink.objects.filter(table=table4, revoked_at=None).count() == 1
    assert TableLink.objects.filter(table=table5, revoked_at=None).count() == 1
    assert links[table5.pk] == TableLink.objects.get(table=table5)
    issued = AuditEvent.objects.filter(action=AuditEvent.Action.ISSUE)
    assert list(issued.values_list("subject", flat=True)) == ["Table 2's link"]
