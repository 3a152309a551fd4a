"""A league as the league file (docs/data-file.md, "The league file").

The league's own club, with its match nights, tables and hands, is written by the club file's own
export, as a shareable club data file (no accounts, emails or audit trail); the rest is the
league's rows, clubs named by slug and people by their seat (their player's name in the league's
own club). Everything is in a stable order, so that exporting, importing and exporting again
gives the same file apart from `exported_at` (and the slugs, where the server importing it had
them taken).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from club.interchange import LEAGUE_FORMAT, LEAGUE_VERSION, SHAREABLE
from club.interchange.services.export import export_document
from club.interchange.services.record_export import moment
from club.leagues.models import Fixture, League, LeaguePerson, MatchCard, Registration, Transfer


def export_league(league: League, *, now: dt.datetime | None = None) -> dict[str, Any]:
    entries = {e.pk: e for e in league.entries.select_related("club").order_by("club__slug", "pk")}
    slug = {pk: e.club.slug for pk, e in entries.items()}
    people = sorted(
        LeaguePerson.objects.filter(league=league).select_related("seat"),
        key=lambda p: (p.seat.name, p.pk),
    )
    seat = {p.pk: p.seat.name for p in people}
    registers = sorted(
        Registration.objects.filter(league=league).select_related("player"),
        key=lambda r: (seat[r.person_id], r.registered_at, slug[r.entry_id], r.pk),
    )
    transfers = sorted(
        Transfer.objects.filter(league=league),
        key=lambda t: (t.granted_at, seat[t.person_id], t.pk),
    )
    fixtures = sorted(
        Fixture.objects.filter(league=league).select_related("night__season"),
        key=lambda f: (f.date, f.cycle, f.round, slug[f.home_id], slug[f.away_id]),
    )
    cards = {
        c.fixture_id: c
        for c in MatchCard.objects.filter(fixture__league=league).select_related("settled_by")
    }
    host = export_document(league.host_club, kind=SHAREABLE, now=now)
    host.pop("exported_at")  # the league file's own says when
    written = (now or timezone.now()).astimezone(dt.UTC).replace(microsecond=0)
    return {
        "format": LEAGUE_FORMAT,
        "version": LEAGUE_VERSION,
        "exported_at": written.isoformat().replace("+00:00", "Z"),
        "league": {
            "name": league.name,
            "slug": league.slug,
            "start": league.season_start.isoformat(),
            "end": league.season_end.isoformat(),
            "meetings": league.meetings,
            "points_win": league.points_win,
            "points_tie": league.points_tie,
            "points_loss": league.points_loss,
            "points_forfeit": league.points_forfeit,
            "players_a_side": league.players_a_side,
            "deals_a_match": league.deals_a_match,
            "tie_breaks": league.tie_break_keys,
            "public": league.is_public,
        },
        "clubs": [
            {
                "slug": e.club.slug,
                "name": e.club.name,
                "status": e.status,
                "answered_at": moment(e.answered_at),
            }
            for e in entries.values()
        ],
        "people": [{"name": p.name, "seat": p.seat.name} for p in people],
        "registers": [
            {
                "person": seat[r.person_id],
                "club": slug[r.entry_id],
                "player": r.player.name,
                "from": moment(r.registered_at),
                "until": moment(r.ended_at),
            }
            for r in registers
        ],
        "transfers": [
            {
                "person": seat[t.person_id],
                "from": slug[t.from_entry_id],
                "to": slug[t.to_entry_id],
                "at": moment(t.granted_at),
                "note": t.note,
            }
            for t in transfers
        ],
        "fixtures": [_fixture(f, cards.get(f.pk), slug) for f in fixtures],
        "host_club": host,
    }


def _fixture(fixture: Fixture, card: MatchCard | None, slug: dict[int, str]) -> dict[str, Any]:
    night = fixture.night
    return {
        "cycle": fixture.cycle,
        "round": fixture.round,
        "date": fixture.date.isoformat(),
        "home": slug[fixture.home_id],
        "away": slug[fixture.away_id],
        "night": None
        if night is None
        else {"season": night.season.name, "date": night.date.isoformat(), "title": night.title},
        "card": None
        if card is None
        else {
            "state": card.state,
            "home_score": card.home_score,
            "away_score": card.away_score,
            "forfeited_by": None if card.forfeited_by_id is None else slug[card.forfeited_by_id],
            "submitted_at": moment(card.submitted_at),
            "answered_at": moment(card.answered_at),
            "dispute_note": card.dispute_note,
            "settled_at": moment(card.settled_at),
            "settled_by": card.settled_by.username if card.settled_by else None,
        },
    }
