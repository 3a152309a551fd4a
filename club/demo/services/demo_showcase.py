"""What the demo club shows beyond its season of hands, so that every feature has something to
look at on the first try: players with example addresses (so publishing sends mail), the last
club night closed, published and its money owed partly paid, a finished tournament, and a viewer
whose account is a player's own ("my results"). Everything goes through the app's own services,
exactly as a secretary's clicks would, so the demo's figures are the app's figures.

Nothing is left open: a night open on today's date would greet a new user's first "New club
night" with "Already playing tonight?".
"""

from __future__ import annotations

import datetime as dt
import random
import unicodedata
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

import scoring
from club.clubs.models import Club, Player, Season
from club.demo.services.demo import random_entry
from club.money.models import Delivery, Publication
from club.money.services import ledger, results_mail
from club.money.services.publish import publish
from club.play.models import Night, Table
from club.play.services import table_cards
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.play.services.nights import close_night
from club.tournaments.models import Tournament
from club.tournaments.services import tournaments as tournament_service

TOURNAMENT_NAME = "Autumn Open"
TOURNAMENT_PLAYERS = 12  # three tables of four
TOURNAMENT_ROUNDS = 3
TOURNAMENT_HANDS = 4  # a round
VIEWER_PLAYER = "Ann Baxter"  # the demo's viewer account is this player's own


@dataclass(frozen=True)
class Showcase:
    published: Night
    tournament: Tournament
    debts: int
    paid_in_full: int
    paid_in_part: int
    emails: int
    cards: int


def example_address(name: str) -> str:
    """ "Renée Dubois" -> "renee.dubois@example.org" (example.org is reserved: mail to it goes
    nowhere even if a demo is pointed at a real mail server)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    words = ["".join(c for c in word if c.isalnum()) for word in plain.lower().split()]
    return ".".join(w for w in words if w) + "@example.org"


def give_addresses(club: Club) -> None:
    players = list(club.players.all())
    for player in players:
        player.email = example_address(player.name)
    Player.objects.bulk_update(players, ["email"])


def link_viewer(club: Club) -> None:
    """The viewer login is Ann Baxter's own account: their nights and money owed on "my
    results"."""
    viewer = get_user_model().objects.filter(username="viewer").first()
    if viewer is not None:
        club.players.filter(name=VIEWER_PLAYER).update(user=viewer)


def finished_tournament(
    club: Club, season: Season, date: dt.date, director: User | None, rng: random.Random
) -> Tournament:
    """A tournament of three rounds, every hand entered and every round closed by its director,
    so it is finished (and its night closed) with a final leaderboard."""
    entrants = list(club.players.order_by("name")[:TOURNAMENT_PLAYERS])
    tournament = tournament_service.create_tournament(
        club,
        season=season,
        date=date,
        name=TOURNAMENT_NAME,
        rounds=TOURNAMENT_ROUNDS,
        hands_per_round=TOURNAMENT_HANDS,
        is_public=True,
        players=entrants,
        seed=rng.randrange(2**31),
        director=director,
    )
    tournament_service.start(tournament, director)
    rules = season.rule_set.rules
    for round_number in range(1, TOURNAMENT_ROUNDS + 1):
        tables = tournament.night.tables.filter(round_number=round_number).order_by("number")
        for table in tables:
            for _ in range(TOURNAMENT_HANDS):
                record_hand(table, _entry(rng, table, rules), director)
        tournament = tournament_service.close_round(tournament, director)
    return tournament


def _entry(rng: random.Random, table: Table, rules: scoring.RuleSet) -> HandEntry:
    coming = next_hand(table)
    seated = list(table.seats.order_by("position").select_related("player"))
    playing = [s.player for s in seated if s.player != coming["sitting_out"]]
    entry = random_entry(rng, coming["dealer"], playing, rules)
    if coming["trump"] and not entry.trump:
        entry = HandEntry(**{**entry.__dict__, "trump": coming["trump"]})
    return entry


def publish_and_send(night: Night, user: User | None) -> int:
    """Publish the closed night and send its results emails now (whatever the task queue), so
    the demo's outbox is full on its first start. Returns the emails sent."""
    publish(night, user)
    for publication in Publication.objects.filter(night=night):
        results_mail.send_publication(publication.pk)  # any the queue has not sent yet
    return Delivery.objects.filter(publication__night=night, status=Delivery.Status.SENT).count()


def pay_some(club: Club, night: Night, user: User | None) -> tuple[int, int, int]:
    """The night's money owed: the first debt paid in full, the second in part, the rest still
    owed (as on any Thursday). Returns (debts, paid in full, paid in part)."""
    debts = ledger.night_debts(night)
    full = part = 0
    for number, debt in enumerate(debts):
        if number == 0:
            ledger.mark_paid(debt, None, user, club=club)
            full += 1
        elif number == 1 and debt.amount >= 2:
            ledger.mark_paid(debt, debt.amount // 2, user, club=club, note="the rest next week")
            part += 1
    return len(debts), full, part


def showcase(club: Club, *, seed: int = 0) -> Showcase:
    """Add the showcase to a club seeded by `club.demo.services.demo.seed` (with its users): its
    latest night is closed, published and partly paid; a finished tournament three days before
    it; example addresses; the viewer linked to a player; four table cards and the door's
    check-in on, to start tonight's night from."""
    rng = random.Random(seed + 1)
    secretary = get_user_model().objects.get(username="secretary")
    give_addresses(club)
    link_viewer(club)
    season = club.seasons.get()
    latest = Night.objects.filter(season=season).order_by("-date").first()
    assert latest is not None and not latest.is_closed, "seed the club's nights first"
    tournament = finished_tournament(
        club, season, latest.date - dt.timedelta(days=3), secretary, rng
    )
    emails = publish_and_send(tournament.night, secretary)
    close_night(latest, secretary)
    latest.refresh_from_db()
    emails += publish_and_send(latest, secretary)
    debts, full, part = pay_some(club, latest, secretary)
    # Tonight can start from the cards on the tables or from who ticks in at the door.
    cards = table_cards.issue_cards(club, secretary, count=4)
    club.door_check_in = True
    club.save(update_fields=["door_check_in"])
    return Showcase(latest, tournament, debts, full, part, emails, len(cards))
