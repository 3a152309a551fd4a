"""Match cards: the home secretary submits the closed night's card, the away side confirms it by
its own link or disputes it with a note, and the organiser settles a disputed card, corrects a
confirmed one, or records a forfeit. Every change is in one transaction, on the locked card, and
in the league's log.

A side's score is the sum of its players' results on the night (their NightTotal nets in the
league's own club). A player's side is the club he was registered for when the night closed: the
seat at the table is his LeaguePerson's record in the league's club, and his registration then
names the entry. The night is zero-sum, so the two scores sum to zero.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from club.clubs.models import AuditEvent, Membership, Role
from club.leagues.models import CardLink, Fixture, LeagueClub, MatchCard, Registration
from club.leagues.services.leagues import log
from club.lib import zones
from club.lib.site import absolute
from club.play.models import NightTotal
from club.play.services.tokens import find

mail_log = logging.getLogger(__name__)

# The longest note a dispute or an organiser's decision keeps.
NOTE_LENGTH = 1000


class CardError(Exception):
    """The card cannot be submitted or changed so; the message says why."""


@dataclass(frozen=True)
class PlayerResult:
    name: str
    entry_id: int
    net: int


@dataclass(frozen=True)
class SideScores:
    home: int
    away: int
    players: list[PlayerResult]  # each player's result, home side first, best first

    def of(self, entry_id: int) -> list[PlayerResult]:
        return [p for p in self.players if p.entry_id == entry_id]


def _live_at(moment: dt.datetime) -> Q:
    return Q(registered_at__lte=moment) & (Q(ended_at__isnull=True) | Q(ended_at__gt=moment))


def side_scores(fixture: Fixture) -> SideScores:
    """Each side's score from the night's totals (two queries). CardError when the fixture has no
    night, or a player at it was registered for neither club when it closed."""
    night = fixture.night
    if night is None:
        raise CardError("This match has no night yet: there is nothing to score.")
    moment = night.closed_at or timezone.now()
    totals = list(
        NightTotal.objects.filter(night=night)
        .select_related("player__league_person")
        .order_by("-net", "player__name")
    )
    person_ids = [t.player.league_person.pk for t in totals if hasattr(t.player, "league_person")]
    side_of = dict(
        Registration.objects.filter(
            _live_at(moment),
            league_id=fixture.league_id,
            person_id__in=person_ids,
            entry_id__in=[fixture.home_id, fixture.away_id],
        ).values_list("person_id", "entry_id")
    )
    players, strays = [], []
    for total in totals:
        person = getattr(total.player, "league_person", None)
        entry_id = side_of.get(person.pk) if person is not None else None
        if entry_id is None:
            strays.append(total.player.name)
            continue
        players.append(PlayerResult(total.player.name, entry_id, total.net))
    if strays:
        raise CardError(
            f"{', '.join(strays)} played but {'was' if len(strays) == 1 else 'were'} registered "
            "for neither club when the night closed: the card cannot be made."
        )
    players.sort(key=lambda p: p.entry_id != fixture.home_id)
    home = sum(p.net for p in players if p.entry_id == fixture.home_id)
    away = sum(p.net for p in players if p.entry_id == fixture.away_id)
    if home + away != 0:  # every player is on a side and the night is zero-sum
        raise CardError(f"The sides' scores ({home} and {away}) do not sum to zero.")
    return SideScores(home, away, players)


def _is_secretary(user: User, entry: LeagueClub) -> bool:
    return Membership.objects.filter(user=user, club_id=entry.club_id, role=Role.SECRETARY).exists()


def _organiser_only(fixture: Fixture, by: User, doing: str) -> None:
    if fixture.league.organiser_id != by.pk:
        raise CardError(f"Only the league's organiser may {doing}.")


def _figures(card: MatchCard) -> dict[str, object]:
    return {
        "state": card.state,
        "home_score": card.home_score,
        "away_score": card.away_score,
        "forfeited_by": str(card.forfeited_by.club) if card.forfeited_by else None,
    }


def _note(note: str, doing: str) -> str:
    note = note.strip()
    if not note:
        raise CardError(f"Say why in a note when you {doing}.")
    if len(note) > NOTE_LENGTH:
        raise CardError(f"A note is at most {NOTE_LENGTH} characters.")
    return note


def _locked(card: MatchCard) -> MatchCard:
    return (
        MatchCard.objects.select_for_update(of=("self",))
        .select_related("fixture__league", "fixture__home__club", "fixture__away__club")
        .get(pk=card.pk)
    )


def submit(fixture: Fixture, by: User) -> MatchCard:
    """The card of a closed night, by a secretary of the home club: its scores from the night,
    the away side's link, and the link emailed to the away club's secretaries. A second submit of
    the same card (a form sent twice) returns the card already made."""
    if not _is_secretary(by, fixture.home):
        raise CardError("Only a secretary of the home club submits the card.")
    with transaction.atomic():
        locked = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("night")
            .get(pk=fixture.pk)
        )
        existing = MatchCard.objects.filter(fixture=locked).first()
        if existing is not None:
            return existing
        if locked.night is None or not locked.night.is_closed:
            raise CardError("The card is submitted once the match night is closed.")
        scores = side_scores(locked)
        card = MatchCard.objects.create(
            fixture=locked,
            home_score=scores.home,
            away_score=scores.away,
            submitted_by=by,
        )
        link = CardLink.objects.create(card=card, issued_by=by, **CardLink.salted())
        league = fixture.league
        log(league, by, AuditEvent.Action.CREATE, f"Card of {fixture}", after=_figures(card))
        log(league, by, AuditEvent.Action.ISSUE, f"Away side's link to the card of {fixture}")
        link_id = link.pk
        transaction.on_commit(lambda: send_card_link.enqueue(link_id))
    return card


def live_link(token: str) -> CardLink | None:
    """The live away link a token names, with its card and fixture; None otherwise."""
    live = CardLink.objects.select_related(
        "card__fixture__league__host_club",
        "card__fixture__home__club",
        "card__fixture__away__club",
        "card__fixture__night",
    )
    return find(live, token)


def _answer(card: MatchCard, via: CardLink, state: str, note: str = "") -> bool:
    """The away side's answer through its link, once: False (nothing changed) when the card is
    in that state already (the same answer sent again)."""
    confirming = state == MatchCard.State.CONFIRMED
    verb = "confirmed" if confirming else "disputed"
    with transaction.atomic():
        locked = _locked(card)
        if via.card_id != locked.pk or not via.is_live:
            raise CardError("This link is not the card's.")
        if locked.state == state:
            return False
        if locked.state != MatchCard.State.SUBMITTED:
            raise CardError(
                f"The card is {locked.get_state_display().lower()}: it can no longer be {verb}."
            )
        before = _figures(locked)
        locked.state = state
        locked.answered_at = timezone.now()
        fields = ["state", "answered_at"]
        if not confirming:
            locked.dispute_note = note
            fields.append("dispute_note")
        locked.save(update_fields=fields)
        log(
            locked.fixture.league,
            None,
            AuditEvent.Action.CONFIRM if confirming else AuditEvent.Action.UPDATE,
            f"Card of {locked.fixture} {verb} by the away side",
            before,
            _figures(locked) if confirming else {**_figures(locked), "note": note},
        )
    card.refresh_from_db()
    return True


def confirm(card: MatchCard, via: CardLink) -> bool:
    """The away side agrees: the card counts."""
    return _answer(card, via, MatchCard.State.CONFIRMED)


def dispute(card: MatchCard, via: CardLink, note: str) -> bool:
    """The away side disagrees, saying why: the card waits for the organiser."""
    return _answer(card, via, MatchCard.State.DISPUTED, _note(note, "dispute a card"))


def _decide(
    card: MatchCard, home_score: int, by: User, note: str, states: tuple[str, ...], doing: str
) -> MatchCard:
    note = _note(note, doing)
    with transaction.atomic():
        locked = _locked(card)
        _organiser_only(locked.fixture, by, doing)
        if locked.state not in states:
            raise CardError(
                f"The card is {locked.get_state_display().lower()}: the organiser cannot "
                f"{doing} it now."
            )
        before = _figures(locked)
        if locked.state == MatchCard.State.DISPUTED:
            locked.state = MatchCard.State.SETTLED
        locked.home_score, locked.away_score = home_score, -home_score
        locked.settled_at, locked.settled_by = timezone.now(), by
        locked.save(update_fields=["state", "home_score", "away_score", "settled_at", "settled_by"])
        log(
            locked.fixture.league,
            by,
            AuditEvent.Action.UPDATE,
            f"Card of {locked.fixture}: {doing}",
            before,
            {**_figures(locked), "note": note},
        )
    card.refresh_from_db()
    return card


def settle(card: MatchCard, home_score: int, by: User, note: str) -> MatchCard:
    """The organiser's decision on a disputed card: its home score (the away score is its
    opposite), and why. The card then counts."""
    return _decide(card, home_score, by, note, (MatchCard.State.DISPUTED,), "settle a card")


def correct(card: MatchCard, home_score: int, by: User, note: str) -> MatchCard:
    """After confirmation (or settlement) only the organiser changes a card, saying why; the log
    keeps the card before and after."""
    counting = (MatchCard.State.CONFIRMED, MatchCard.State.SETTLED)
    return _decide(card, home_score, by, note, counting, "correct a card")


def record_forfeit(fixture: Fixture, forfeits: LeagueClub, by: User) -> MatchCard:
    """The club that did not turn up forfeits: a loss and the league's forfeit points, its
    opponent a win. Organiser only; replaces any card the fixture had (and stops its link)."""
    _organiser_only(fixture, by, "record a forfeit")
    if forfeits.pk not in (fixture.home_id, fixture.away_id):
        raise CardError(f"{forfeits.club} does not play in {fixture}.")
    with transaction.atomic():
        locked = Fixture.objects.select_for_update().get(pk=fixture.pk)
        card = MatchCard.objects.select_for_update().filter(fixture=locked).first()
        before = _figures(card) if card is not None else None
        if card is not None and (card.state, card.forfeited_by_id) == (
            MatchCard.State.FORFEIT,
            forfeits.pk,
        ):
            return card  # recorded already
        card = card or MatchCard(fixture=locked, submitted_by=by)
        card.state = MatchCard.State.FORFEIT
        card.home_score = card.away_score = 0
        card.forfeited_by = forfeits
        card.settled_at, card.settled_by = timezone.now(), by
        card.save()
        CardLink.objects.filter(card=card, revoked_at=None).update(
            revoked_at=timezone.now(), revoked_by=by
        )
        log(
            fixture.league,
            by,
            AuditEvent.Action.UPDATE if before else AuditEvent.Action.CREATE,
            f"Forfeit by {forfeits.club}: {fixture}",
            before,
            _figures(card),
        )
    return card


# The away side's email -------------------------------------------------------------------------


@task()
def send_card_link(link_id: int) -> int:
    """Email the away club's secretaries the link to the card (one message each, so that no one
    sees another's address). Returns how many were sent; a revoked link sends nothing."""
    link = (
        CardLink.objects.filter(pk=link_id, revoked_at=None)
        .select_related("card__fixture__league__host_club", "card__fixture__home__club")
        .select_related("card__fixture__away__club")
        .first()
    )
    if link is None:
        return 0
    fixture = link.card.fixture
    league = fixture.league
    url = absolute(reverse("league_card", args=[league.slug, link.token]))
    addresses = (
        Membership.objects.filter(club_id=fixture.away.club_id, role=Role.SECRETARY)
        .exclude(user__email="")
        .values_list("user__email", flat=True)
        .order_by("user__email")
    )
    sent = 0
    connection = get_connection()
    with zones.club_time(league.host_club):
        host = league.host_club
        context = {
            "fixture": fixture,
            "league": league,
            "url": url,
            "home_score": host.format_amount(link.card.home_score, signed=True),
            "away_score": host.format_amount(link.card.away_score, signed=True),
        }
        subject, _, body = render_to_string("leagues/email/card.txt", context).partition("\n")
    for email in addresses:
        message = EmailMessage(subject.strip(), body.lstrip("\n"), to=[email])
        try:
            sent += connection.send_messages([message]) or 0
        except Exception:
            mail_log.exception(
                "League %s: the card link of fixture %s not sent", league.slug, fixture.pk
            )
    return sent
