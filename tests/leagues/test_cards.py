"""Match cards: submitted by the home secretary once the night closes, confirmed or disputed by
the away side's link, settled or corrected by the organiser only (logged), forfeits."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, TestCase

from club.clubs.models import AuditEvent
from club.leagues.models import CardLink, MatchCard
from club.leagues.queries.table import table_of
from club.leagues.services import cards
from club.play.models import ScoreLine
from tests.kits.league_kit import fixture, play_match

# The away side's email is queued when the card's transaction commits.
captured_on_commit = TestCase.captureOnCommitCallbacks

# Hoyle: a solo made pays 6 a player, one lost by two tricks 8. Home player 1 makes a solo (+18),
# away player 1 loses one (-24, the other three +8): home 26 + 2 = 28, away 2 - 30 = -28.
HANDS = [(0, "solo", 5), (1, "solo", 3)]


def secretary(entry) -> User:
    return User.objects.get(username=f"sec-{entry.club.slug}")


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def away_token() -> str:
    """The link in the email the away club's secretary got."""
    (message,) = mail.outbox
    return re.search(r"/cards/([\w-]+)/", message.body)[1]


@pytest.fixture
def match(league, five_clubs):
    return fixture(league, five_clubs[0], five_clubs[1])


def test_the_card_is_submitted_after_the_close_and_confirmed_by_the_away_link(match, league):
    home_sec, away_sec = secretary(match.home), secretary(match.away)
    night = play_match(match, HANDS, close=False)
    with pytest.raises(cards.CardError, match="once the match night is closed"):
        cards.submit(match, home_sec)
    from club.play.services.nights import close_night

    close_night(night, None)
    with pytest.raises(cards.CardError, match="secretary of the home club"):
        cards.submit(match, away_sec)
    with pytest.raises(cards.CardError, match="secretary of the home club"):
        cards.submit(match, league.organiser)

    with captured_on_commit(execute=True):
        page = client_of(home_sec).post(
            f"/leagues/{league.slug}/fixtures/{match.pk}/card/", {"action": "submit"}, follow=True
        )
    assert "the away club&#x27;s secretaries have its link" in page.content.decode()
    card = MatchCard.objects.get(fixture=match)
    by_side = {"home": 0, "away": 0}
    for line in ScoreLine.objects.filter(night=night).select_related("player"):
        by_side["home" if "Aberdeen" in line.player.name else "away"] += line.amount
    assert (card.home_score, card.away_score) == (by_side["home"], by_side["away"]) == (28, -28)
    assert card.state == MatchCard.State.SUBMITTED and not card.counts
    # The same form sent twice makes one card, one link, one email.
    assert cards.submit(match, home_sec).pk == card.pk
    assert CardLink.objects.filter(card=card).count() == 1
    (message,) = mail.outbox
    assert message.to == [away_sec.email]
    assert "Aberdeen Athenaeum: +£0.28" in message.body

    token = away_token()
    anyone = Client()
    page = anyone.get(f"/leagues/{league.slug}/cards/{token}/").content.decode()
    for name, result in [
        ("Aberdeen Athenaeum player 1", "+£0.26"),
        ("Bucksburn Crown player 1", "-£0.30"),
    ]:
        assert re.search(rf"{name}</td><td class=\"num\">{re.escape(result)}<", page), name
    assert table_of(league)[0].played == 0  # not counted yet

    answer = anyone.post(
        f"/leagues/{league.slug}/cards/{token}/", {"action": "confirm"}, follow=True
    )
    assert "it counts in the league table" in answer.content.decode()
    card.refresh_from_db()
    assert card.state == MatchCard.State.CONFIRMED and card.counts
    logged = AuditEvent.objects.filter(club=league.host_club, action=AuditEvent.Action.CONFIRM)
    assert logged.count() == 1
    # Sent again (a second tap, a page reloaded): recognised, nothing changes.
    again = anyone.post(
        f"/leagues/{league.slug}/cards/{token}/", {"action": "confirm"}, follow=True
    )
    assert "confirmed already: nothing changed" in again.content.decode()
    assert logged.count() == 1
    # A dispute after the confirmation is refused.
    late = anyone.post(
        f"/leagues/{league.slug}/cards/{token}/",
        {"action": "dispute", "note": "wrong"},
        follow=True,
    )
    assert "can no longer be disputed" in late.content.decode()
    card.refresh_from_db()
    assert card.state == MatchCard.State.CONFIRMED
    lines = {
        line.entry.club.name: (line.played, line.won, line.aggregate) for line in table_of(league)
    }
    assert lines["Aberdeen Athenaeum"] == (1, 1, 28)
    assert lines["Bucksburn Crown"] == (1, 0, -28)


def test_a_disputed_card_does_not_count_until_the_organiser_settles_it(match, league):
    play_match(match, HANDS)
    with captured_on_commit(execute=True):
        card = cards.submit(match, secretary(match.home))
    token = away_token()
    anyone = Client()
    url = f"/leagues/{league.slug}/cards/{token}/"
    anyone.post(url, {"action": "dispute", "note": "  "})
    card.refresh_from_db()
    assert card.state == MatchCard.State.SUBMITTED  # a dispute says why
    anyone.post(url, {"action": "dispute", "note": "Hand 2 was a misère, not a solo."})
    card.refresh_from_db()
    assert card.state == MatchCard.State.DISPUTED and not card.counts
    again = anyone.post(url, {"action": "dispute", "note": "Hand 2 again"}, follow=True)
    assert "disputed already: nothing changed" in again.content.decode()
    card.refresh_from_db()
    assert card.dispute_note == "Hand 2 was a misère, not a solo."
    assert all(line.played == 0 for line in table_of(league))

    card_url = f"/leagues/{league.slug}/fixtures/{match.pk}/card/"
    settle = {"action": "settle", "home_score": "-0.04", "note": "Agreed by phone: a misère."}
    for user in (secretary(match.home), secretary(match.away)):
        client_of(user).post(card_url, settle)
        card.refresh_from_db()
        assert card.state == MatchCard.State.DISPUTED
    organiser = client_of(league.organiser)
    page = organiser.get(card_url).content.decode()
    assert "Hand 2 was a misère, not a solo." in page and "Settle the card" in page
    organiser.post(card_url, settle)
    card.refresh_from_db()
    assert (card.state, card.home_score, card.away_score) == (MatchCard.State.SETTLED, -4, 4)
    lines = {line.entry.club.name: line for line in table_of(league)}
    assert (lines["Bucksburn Crown"].won, lines["Bucksburn Crown"].aggregate) == (1, 4)
    assert lines["Bucksburn Crown"].position == 1


def test_after_confirmation_only_the_organiser_corrects_the_card_and_it_is_logged(match, league):
    play_match(match, HANDS)
    card = cards.submit(match, secretary(match.home))
    link = CardLink.objects.get(card=card)
    assert cards.confirm(card, link) is True
    assert cards.confirm(card, link) is False
    for user in (secretary(match.home), secretary(match.away)):
        with pytest.raises(cards.CardError, match="Only the league's organiser"):
            cards.correct(card, 0, user, "a tie really")
    with pytest.raises(cards.CardError, match="Say why"):
        cards.correct(card, 0, league.organiser, "")
    with pytest.raises(cards.CardError, match="cannot settle"):
        cards.settle(card, 0, league.organiser, "not disputed")
    client_of(league.organiser).post(
        f"/leagues/{league.slug}/fixtures/{match.pk}/card/",
        {"action": "correct", "home_score": "0", "note": "Hand 1 was scored twice."},
    )
    card.refresh_from_db()
    assert (card.state, card.home_score) == (MatchCard.State.CONFIRMED, 0)
    event = AuditEvent.objects.filter(club=league.host_club, subject__contains="correct").get()
    assert event.user == league.organiser
    assert (event.before["home_score"], event.after["home_score"]) == (28, 0)
    assert event.after["note"] == "Hand 1 was scored twice."
    assert [line.tied for line in table_of(league)][:2] == [1, 1]


def test_the_organiser_records_a_forfeit_with_the_leagues_points(match, league, five_clubs):
    league.points_forfeit = -1
    league.save()
    with pytest.raises(cards.CardError, match="Only the league's organiser"):
        cards.record_forfeit(match, match.away, secretary(match.home))
    with pytest.raises(cards.CardError, match="does not play in"):
        cards.record_forfeit(match, five_clubs[4], league.organiser)
    url = f"/leagues/{league.slug}/fixtures/{match.pk}/card/"
    organiser = client_of(league.organiser)
    organiser.post(url, {"action": "forfeit", "forfeits": match.away_id})  # not ticked
    assert not MatchCard.objects.filter(fixture=match).exists()
    organiser.post(url, {"action": "forfeit", "forfeits": match.away_id, "sure": "on"})
    card = MatchCard.objects.get(fixture=match)
    assert (card.state, card.forfeited_by) == (MatchCard.State.FORFEIT, match.away)
    lines = {line.entry.club.name: line for line in table_of(league)}
    home, away = lines["Aberdeen Athenaeum"], lines["Bucksburn Crown"]
    assert (home.won, home.points, home.aggregate, home.position) == (1, 3, 0, 1)
    assert (away.lost, away.points, away.aggregate, away.position) == (1, -1, 0, 5)


def test_the_away_link_is_a_404_when_wrong_revoked_or_of_another_league(match, league):
    play_match(match, HANDS)
    with captured_on_commit(execute=True):
        card = cards.submit(match, secretary(match.home))
    token = away_token()
    anyone = Client()
    assert anyone.get(f"/leagues/{league.slug}/cards/{token}/").status_code == 200
    assert anyone.get(f"/leagues/{league.slug}/cards/{token[:-2]}xx/").status_code == 404
    assert anyone.get(f"/leagues/another-league/cards/{token}/").status_code == 404
    CardLink.objects.filter(card=card).update(revoked_at=card.submitted_at)
    assert anyone.get(f"/leagues/{league.slug}/cards/{token}/").status_code == 404
    assert (
        anyone.post(f"/leagues/{league.slug}/cards/{token}/", {"action": "confirm"}).status_code
        == 404
    )
    card.refresh_from_db()
    assert card.state == MatchCard.State.SUBMITTED
