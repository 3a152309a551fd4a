"""Making a league on this server from a league file: all or nothing.

The clubs the file names must be clubs here already (matched by slug), and each register's player
one of that club's players (matched by name, ignoring case): a league file moves a league, not
its clubs, whose own record moves with their own club data files. Anything missing refuses the
whole file, naming the club or the player, before anything is written.

The league's own club is made by the club file's import (its players, rule set, season and match
nights with every hand scored again by the app); its slug and the league's are the file's when
free here, else new ones. Whoever imports the file is the league's organiser. Moments are written
as the file gives them; the accounts that registered players or granted transfers are not in the
file, and a card's `settled_by` is the account of that user name here, when there is one.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.models import User
from django.db import transaction

from club.clubs.models import AuditEvent, Club, Player
from club.clubs.services import clubs_lifecycle
from club.interchange.format.league_read import LeagueDocument
from club.interchange.format.reading import ImportRefused, Problem
from club.interchange.services.importer import import_document
from club.leagues.models import (
    Fixture,
    League,
    LeagueClub,
    LeaguePerson,
    MatchCard,
    Registration,
    Transfer,
)
from club.leagues.services.leagues import free_league_slug, log
from club.lib.names import name_key
from club.play.models import Night


def _check_server(doc: LeagueDocument) -> tuple[dict[str, Club], dict[tuple[int, str], Player]]:
    """The file's clubs and registered players as this server has them; ImportRefused naming
    each one missing."""
    problems: list[Problem] = []
    clubs = {c.slug: c for c in Club.objects.filter(slug__in=[e.slug for e in doc.clubs])}
    for entry in doc.clubs:
        if entry.slug not in clubs:
            named = f" ({entry.name})" if entry.name else ""
            problems.append(
                Problem(
                    f"club {entry.slug!r}",
                    f"there is no club with this slug{named} on this server: make the club (or "
                    "import its club data file) first",
                )
            )
    players = {
        (p.club_id, name_key(p.name)): p
        for p in Player.objects.filter(club__in=list(clubs.values()))
    }
    for register in doc.registers:
        club = clubs.get(register.club)
        if club is not None and (club.pk, name_key(register.player)) not in players:
            problems.append(
                Problem(
                    register.where,
                    f"{club.name} has no player called {register.player!r}: add them to the "
                    "club first",
                )
            )
    if problems:
        raise ImportRefused(problems)
    return clubs, players


def import_league(doc: LeagueDocument, organiser: User, source: str = "") -> League:
    """The league the file holds, made on this server with `organiser` as its organiser; or
    ImportRefused with every problem, and nothing written."""
    with transaction.atomic():
        clubs, players = _check_server(doc)
        host_slug = clubs_lifecycle.free_slug(doc.host.club.slug or f"league-{doc.league.slug}")
        # Its grades are rated after the commit, as a played night's are.
        host, _ = import_document(doc.host, slug=host_slug, user=organiser, source=source)
        assert host is not None  # not a dry run
        settings = doc.league
        slug = settings.slug
        if League.objects.filter(slug=slug).exists():
            slug = free_league_slug(settings.name)
        league = League.objects.create(
            name=settings.name,
            slug=slug,
            organiser=organiser,
            host_club=host,
            season_start=settings.start,
            season_end=settings.end,
            meetings=settings.meetings,
            points_win=settings.points_win,
            points_tie=settings.points_tie,
            points_loss=settings.points_loss,
            points_forfeit=settings.points_forfeit,
            players_a_side=settings.players_a_side,
            deals_a_match=settings.deals_a_match,
            tie_breaks=",".join(settings.tie_breaks),
            is_public=settings.public,
        )
        entries = {
            e.slug: LeagueClub.objects.create(
                league=league, club=clubs[e.slug], status=e.status, answered_at=e.answered_at
            )
            for e in doc.clubs
        }
        seats = {name_key(p.name): p for p in Player.objects.filter(club=host)}
        people = {
            name_key(p.seat): LeaguePerson(league=league, name=p.name, seat=seats[name_key(p.seat)])
            for p in doc.people
        }
        # A person is the account that claimed their clubs' player records, when one did: the
        # file names no account, this server's clubs do.
        users: dict[str, set[int]] = defaultdict(set)
        for r in doc.registers:
            user_id = players[(clubs[r.club].pk, name_key(r.player))].user_id
            if user_id is not None:
                users[name_key(r.person)].add(user_id)
        taken: set[int] = set()
        for key, person in people.items():
            claimed = users.get(key, set())
            if len(claimed) == 1 and not claimed & taken:
                person.user_id = next(iter(claimed))
                taken |= claimed
        LeaguePerson.objects.bulk_create(people.values())
        registrations = Registration.objects.bulk_create(
            Registration(
                league=league,
                entry=entries[r.club],
                person=people[name_key(r.person)],
                player=players[(clubs[r.club].pk, name_key(r.player))],
                ended_at=r.until,
            )
            for r in doc.registers
        )
        # Made "now" by the model; the file's moments are what happened.
        for registration, r in zip(registrations, doc.registers, strict=True):
            registration.registered_at = r.start
        Registration.objects.bulk_update(registrations, ["registered_at"])
        transfers = Transfer.objects.bulk_create(
            Transfer(
                league=league,
                person=people[name_key(t.person)],
                from_entry=entries[t.from_club],
                to_entry=entries[t.to_club],
                note=t.note,
            )
            for t in doc.transfers
        )
        for transfer, t in zip(transfers, doc.transfers, strict=True):
            transfer.granted_at = t.at
        Transfer.objects.bulk_update(transfers, ["granted_at"])
        _fixtures(league, doc, entries, host)
        log(
            league,
            organiser,
            AuditEvent.Action.CREATE,
            "League imported" + (f" from {source}" if source else ""),
            after={
                "file": source,
                "clubs": len(doc.clubs),
                "people": len(doc.people),
                "fixtures": len(doc.fixtures),
            },
        )
    return league


def _fixtures(
    league: League, doc: LeagueDocument, entries: dict[str, LeagueClub], host: Club
) -> None:
    nights = {
        (n.season.name, n.date, n.title): n
        for n in Night.objects.filter(season__club=host).select_related("season")
    }
    wanted = {f.card.settled_by for f in doc.fixtures if f.card and f.card.settled_by}
    accounts = {u.username: u for u in User.objects.filter(username__in=wanted)}
    fixtures = Fixture.objects.bulk_create(
        Fixture(
            league=league,
            cycle=f.cycle,
            round=f.round,
            date=f.date,
            home=entries[f.home],
            away=entries[f.away],
            night=None if f.night is None else nights[f.night],
        )
        for f in doc.fixtures
    )
    cards = []
    for fixture, f in zip(fixtures, doc.fixtures, strict=True):
        if f.card is None:
            continue
        c = f.card
        cards.append(
            MatchCard(
                fixture=fixture,
                state=c.state,
                home_score=c.home_score,
                away_score=c.away_score,
                forfeited_by=None if c.forfeited_by is None else entries[c.forfeited_by],
                answered_at=c.answered_at,
                dispute_note=c.dispute_note,
                settled_at=c.settled_at,
                settled_by=accounts.get(c.settled_by) if c.settled_by else None,
            )
        )
    made = MatchCard.objects.bulk_create(cards)
    moments = [f.card.submitted_at for f in doc.fixtures if f.card is not None]
    for card, at in zip(made, moments, strict=True):
        card.submitted_at = at
    MatchCard.objects.bulk_update(made, ["submitted_at"])
