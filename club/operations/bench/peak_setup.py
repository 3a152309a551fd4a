"""An evening's clubs set up in bulk for `bench --peak`: N clubs of 10 tables, a night open in
each, every table's link issued, and each club's secretary logged in.

A thousand clubs through the services one by one (create_night, night_links, a session per
login) take tens of minutes; the same rows through bulk_create take a minute or two. The clubs,
their players, rule sets, seasons and secretaries are made once and kept for later runs; each
run opens a fresh night in every club, with fresh tables, seats and links, so a run's hands are
its own.

What the load generator needs (club.operations.bench.peak_load, which has no Django) is written
as plain data: each table's link token, its players in seat order and who sits out under each
dealer, and each club's addresses and secretary's session.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

import scoring
from club.clubs.models import Club, Membership, Player, Role, RuleSet, Season
from club.lib.names import name_key
from club.operations.bench.nights import fresh_statistics
from club.play.forms.hands import NewHandForm
from club.play.models import Night, Seat, Table, TableLink
from club.play.models.table_links import derive_token

PREFIX = "peak"
TABLES = 10
# Every third table seats five (one sits out each hand), the others four: 43 players a club.
FIVES = (3, 6, 9)
SEASON_START = dt.date(2026, 1, 1)
BATCH = 2000


@dataclass
class PhonePlan:
    """One table's phone: its link, and what it needs to post valid hands."""

    club: int  # index of the club in the plan
    number: int  # the table's number
    table_id: int
    token: str
    seats: list[int]  # player ids in seat order; seat 0 deals hand 1
    out: dict[str, int | None]  # dealer id -> who sits out (a table of five), else None


@dataclass
class ClubPlan:
    slug: str
    night_id: int
    session: str  # the secretary's session key
    board: str  # the live board's address
    night: str  # the night page's address
    secretary_pages: list[str] = field(default_factory=list)


@dataclass
class Plan:
    clubs: list[ClubPlan]
    phones: list[PhonePlan]
    form_fields: list[str]  # every field the phone's hand form posts

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _club_slug(number: int) -> str:
    return f"{PREFIX}-{number:04d}"


def _size(table_number: int) -> int:
    return 5 if table_number in FIVES else 4


PLAYERS = sum(_size(n) for n in range(1, TABLES + 1))


def ensure_clubs(count: int) -> list[Club]:
    """Clubs peak-0001.. up to `count`, each with its players, a Hoyle rule set, a season and a
    secretary; the missing ones made in bulk."""
    wanted = [_club_slug(n) for n in range(1, count + 1)]
    have = set(Club.objects.filter(slug__in=wanted).values_list("slug", flat=True))
    missing = [s for s in wanted if s not in have]
    if missing:
        with transaction.atomic():
            _make_clubs(missing)
    clubs = {c.slug: c for c in Club.objects.filter(slug__in=wanted)}
    return [clubs[s] for s in wanted]


def _make_clubs(slugs: list[str]) -> None:
    clubs = Club.objects.bulk_create(
        [Club(slug=s, name=f"Peak club {s[-4:]}") for s in slugs], batch_size=BATCH
    )
    hoyle = scoring.preset("hoyle")
    rule_sets = RuleSet.objects.bulk_create(
        [RuleSet(club=c, name="Hoyle", preset="hoyle", data=hoyle.to_dict()) for c in clubs],
        batch_size=BATCH,
    )
    Season.objects.bulk_create(
        [
            Season(
                club=c,
                name="Peak",
                start=SEASON_START,
                end=dt.date(2026, 12, 31),
                rule_set=r,
            )
            for c, r in zip(clubs, rule_sets, strict=True)
        ],
        batch_size=BATCH,
    )
    players = []
    for c in clubs:
        for n in range(1, PLAYERS + 1):
            name = f"Player {n:02d}"
            players.append(Player(club=c, name=name, name_key=name_key(name)))
    Player.objects.bulk_create(players, batch_size=BATCH)
    # Secretaries: no password to log in with (their sessions are made directly), so no hashing.
    users = get_user_model().objects.bulk_create(
        [
            get_user_model()(username=f"{c.slug}-secretary", password=make_password(None))
            for c in clubs
        ],
        batch_size=BATCH,
    )
    Membership.objects.bulk_create(
        [
            Membership(user=u, club=c, role=Role.SECRETARY)
            for c, u in zip(clubs, users, strict=True)
        ],
        batch_size=BATCH,
    )


def _sessions(clubs: list[Club]) -> dict[int, str]:
    """A fresh logged-in session for each club's secretary, by club id, as logging in makes."""
    users = {
        m.club_id: m.user
        for m in Membership.objects.filter(
            club__in=clubs, role=Role.SECRETARY, user__username__startswith=PREFIX
        ).select_related("user")
    }
    store = SessionStore()
    expires = timezone.now() + dt.timedelta(days=1)
    keys, rows = {}, []
    for club in clubs:
        user = users[club.pk]
        key = secrets.token_hex(16)
        data = store.encode(
            {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
        )
        rows.append(Session(session_key=key, session_data=data, expire_date=expires))
        keys[club.pk] = key
    Session.objects.bulk_create(rows, batch_size=BATCH)
    return keys


def open_evening(clubs: list[Club], run: int) -> tuple[list[Night], Plan]:
    """A fresh open night of 10 tables in every club, every table's link issued, and the plan
    the load generator follows."""
    seasons = {
        s.club_id: s for s in Season.objects.filter(club__in=clubs).select_related("rule_set")
    }
    players: dict[int, list[int]] = {}
    for club_id, player_id in (
        Player.objects.filter(club__in=clubs).order_by("club_id", "pk").values_list("club_id", "pk")
    ):
        players.setdefault(club_id, []).append(player_id)
    day = SEASON_START + dt.timedelta(days=run % 365)
    with transaction.atomic():
        nights = Night.objects.bulk_create(
            [Night(season=seasons[c.pk], date=day, title=f"Peak evening {run}") for c in clubs],
            batch_size=BATCH,
        )
        tables = Table.objects.bulk_create(
            [Table(night=n, number=t) for n in nights for t in range(1, TABLES + 1)],
            batch_size=BATCH,
        )
        seating: dict[int, list[int]] = {}
        seats = []
        for index, table in enumerate(tables):
            club = clubs[index // TABLES]
            first = sum(_size(n) for n in range(1, table.number))
            ids = players[club.pk][first : first + _size(table.number)]
            seating[table.pk] = ids
            seats += [Seat(table=table, position=i, player_id=p) for i, p in enumerate(ids)]
        Seat.objects.bulk_create(seats, batch_size=BATCH)
        links = TableLink.objects.bulk_create(
            [TableLink.fresh(t.pk) for t in tables], batch_size=BATCH
        )
    sessions = _sessions(clubs)
    fresh_statistics()
    plan = Plan(clubs=[], phones=[], form_fields=_form_fields(tables[0]))
    for club, night in zip(clubs, nights, strict=True):
        plan.clubs.append(
            ClubPlan(
                slug=club.slug,
                night_id=night.pk,
                session=sessions[club.pk],
                board=reverse("live_night", args=[club.slug, night.pk]),
                night=reverse("night_detail", args=[club.slug, night.pk]),
                secretary_pages=[
                    reverse("night_detail", args=[club.slug, night.pk]),
                    reverse("night_list", args=[club.slug]),
                    reverse("player_list", args=[club.slug]),
                    reverse("night_links", args=[club.slug, night.pk]),
                ],
            )
        )
    rules = {c.pk: seasons[c.pk].rule_set.rules for c in clubs}
    for index, (table, link) in enumerate(zip(tables, links, strict=True)):
        club_index = index // TABLES
        ids = seating[table.pk]
        keys = [str(p) for p in ids]
        rotation = scoring.table.rotation(keys, rules[clubs[club_index].pk])
        out = {k: (int(v["out"]) if v["out"] else None) for k, v in rotation.items()}
        plan.phones.append(
            PhonePlan(club_index, table.number, table.pk, derive_token(link.salt), ids, out)
        )
    return nights, plan


def _form_fields(table: Table) -> list[str]:
    """The fields the table page's hand form posts, plus the CSRF token it carries."""
    table = Table.objects.select_related("night__season__rule_set").get(pk=table.pk)
    seats = [s.player for s in table.seats.select_related("player").order_by("position")]
    form = NewHandForm(
        table=table, rules=table.night.season.rule_set.rules, dealer=seats[0], number=1
    )
    # A browser leaves out a checkbox nobody ticked (wrong cards: no one); it posts every other
    # field, empty or not.
    return [
        "csrfmiddlewaretoken",
        *(
            name
            for name, f in form.fields.items()
            if getattr(f.widget, "input_type", "") != "checkbox"
            and not getattr(f.widget, "allow_multiple_selected", False)
        ),
    ]
