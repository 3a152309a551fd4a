"""Version 3's rest of a club's record, as the data file writes it (docs/data-file.md).

A fixed number of queries whatever the club's size; everything in a stable order (debts by when
they were made, payments by when they were marked, publications by number, deliveries and
arrivals by name, cards by number, the audit trail by time), so that export, import into an
empty database and export again gives the same file. People are named, never numbered: players
by name, accounts by user name.

A backup holds it all. A shareable record leaves out what is personal or secret: accounts,
invitations, email addresses (players' and deliveries'), who did what, table cards' token
hashes, the door's salt and the audit trail.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model

from club.clubs.models import AuditEvent, Club, Invitation, Membership
from club.grades.models import GradeOptOut, GradeSettings
from club.money.models import Debt, Delivery, Netting, Publication, Settlement
from club.play.models import Arrival, Night, TableCard
from club.tournaments.models.tournaments import Entry, Tournament
from scoring import grade as grade_core

CLUB_FIELDS = (
    "currency_symbol",
    "minor_units",
    "points_label",
    "confirm_table_hands",
    "correction_minutes",
    "players_may_claim",
    "projector_embed_origins",
    "scorers_add_players",
    "first_card_opens_night",
    "door_check_in",
    "odd_tables",
    "time_zone",
)


def moment(value: dt.datetime | None) -> str | None:
    """A moment in UTC, to the microsecond, written with Z."""
    if value is None:
        return None
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


class RecordExport:
    """Reads the record of `club` (its nights `night_ids`) once, then gives each entry's part."""

    def __init__(
        self,
        club: Club,
        night_ids: list[int],
        names: dict[int, str],
        season_names: dict[int, str],
        *,
        backup: bool,
        whole_club: bool,
    ) -> None:
        self.club = club
        self.names = names
        self.backup = backup
        self.whole_club = whole_club
        self.user_ids: set[int] = set()
        night_fields = (
            "pk", "season_id", "date", "title", "counts_in_standings", "closed_at",
            "closed_by_id", "publish_after", "published_at",
        )  # fmt: skip
        self.nights = {
            row[0]: dict(zip(night_fields, row, strict=True))
            for row in Night.objects.filter(pk__in=night_ids).values_list(*night_fields)
        }
        self.night_refs = {
            pk: {"season": season_names[n["season_id"]], "date": n["date"].isoformat(),
                 "title": n["title"]}
            for pk, n in self.nights.items()
        }  # fmt: skip
        for n in self.nights.values():
            self._user(n["closed_by_id"])
        self.tournaments = {
            t.night_id: t for t in Tournament.objects.filter(night_id__in=night_ids)
        }
        for t in self.tournaments.values():
            self._user(t.director_id)
        self.entries: dict[int, list[Entry]] = defaultdict(list)
        for entry in Entry.objects.filter(tournament__night_id__in=night_ids):
            self.entries[entry.tournament_id].append(entry)
        self.publications: dict[int, list[Publication]] = defaultdict(list)
        publications = list(
            Publication.objects.filter(night_id__in=night_ids).order_by("night_id", "number")
        )
        for publication in publications:
            self.publications[publication.night_id].append(publication)
            self._user(publication.by_id)
        self.deliveries: dict[int, list[Delivery]] = defaultdict(list)
        for delivery in Delivery.objects.filter(publication__night_id__in=night_ids):
            self.deliveries[delivery.publication_id].append(delivery)
        self.debts: dict[int, list[Debt]] = defaultdict(list)
        debt_numbers: dict[int, int] = {}
        for debt in Debt.objects.filter(night_id__in=night_ids).order_by("created_at", "id"):
            self.debts[debt.night_id].append(debt)
            debt_numbers[debt.pk] = len(self.debts[debt.night_id])
        self.debt_numbers = debt_numbers
        self.settlements: dict[int, list[tuple[int, Settlement]]] = defaultdict(list)
        netting_ids: set[int] = set()
        for settlement in (
            Settlement.objects.filter(debt__night_id__in=night_ids)
            .select_related("debt")
            .order_by("at", "id")
        ):
            self.settlements[settlement.debt.night_id].append((settlement.debt_id, settlement))
            self._user(settlement.by_id)
            self._user(settlement.undone_by_id)
            if settlement.netting_id:
                netting_ids.add(settlement.netting_id)
        nettings = Netting.objects.filter(club=club).order_by("at", "id")
        if not whole_club:
            nettings = nettings.filter(pk__in=netting_ids)
        self.nettings = list(nettings)
        self.netting_numbers = {n.pk: i for i, n in enumerate(self.nettings, start=1)}
        for netting in self.nettings:
            self._user(netting.by_id)
        self.player_users: dict[int, int | None] = {}
        self.player_emails: dict[int, tuple[str, bool]] = {}
        for pk, email, email_results, user_id in club.players.values_list(
            "pk", "email", "email_results", "user_id"
        ):
            self.player_emails[pk] = (email, email_results)
            self.player_users[pk] = user_id
            self._user(user_id)
        self.hidden_grades = set(
            GradeOptOut.objects.filter(player__club=club).values_list("player_id", flat=True)
        )
        self.grading = GradeSettings.objects.filter(club=club).first()
        self.members: dict[int, str] = {}
        self.invitations: list[Invitation] = []
        self.cards: list[TableCard] = []
        self.audit: list[AuditEvent] = []
        self.arrivals: list[tuple[dt.date, int, dt.datetime, str]] = []
        if whole_club:
            self.arrivals = list(
                Arrival.objects.filter(club=club).values_list(
                    "date", "player_id", "arrived_at", "via"
                )
            )
            self.arrivals.sort(key=lambda row: (row[0], names[row[1]]))
        if whole_club and backup:
            self.members = dict(Membership.objects.filter(club=club).values_list("user_id", "role"))
            self.user_ids.update(self.members)
            self.invitations = list(
                Invitation.objects.filter(
                    club=club, accepted_at=None, declined_at=None, withdrawn_at=None
                )
            )
            for invitation in self.invitations:
                self._user(invitation.user_id)
                self._user(invitation.invited_by_id)
            self.cards = list(
                TableCard.objects.filter(club=club).order_by("number", "issued_at", "id")
            )
            for card in self.cards:
                self._user(card.issued_by_id)
                self._user(card.revoked_by_id)
            self.audit = list(AuditEvent.objects.filter(club=club).order_by("at", "id"))
            for event in self.audit:
                self._user(event.user_id)
            # The audit trail may name nights the export has not read (every night is read
            # for a whole club, so only a deleted night's events: those keep their label).
        self.usernames: dict[int, tuple[str, str]] = {}
        if backup and self.user_ids:
            self.usernames = {
                pk: (username, email)
                for pk, username, email in get_user_model()
                .objects.filter(pk__in=self.user_ids)
                .values_list("pk", "username", "email")
            }

    @property
    def named_players(self) -> set[int]:
        """Players the nights' money owed, emails and entries name (seated or not)."""
        named = {
            p for debts in self.debts.values() for d in debts for p in (d.payer_id, d.payee_id)
        }
        named |= {e.player_id for entries in self.entries.values() for e in entries}
        if self.backup:
            named |= {d.player_id for ds in self.deliveries.values() for d in ds}
        return named

    def _user(self, pk: int | None) -> None:
        if pk is not None:
            self.user_ids.add(pk)

    def username(self, pk: int | None) -> str | None:
        if pk is None or not self.backup:
            return None
        found = self.usernames.get(pk)
        return found[0] if found else None

    # Parts of entries ---------------------------------------------------------------------------

    def club_part(self) -> dict[str, Any]:
        part: dict[str, Any] = {key: getattr(self.club, key) for key in CLUB_FIELDS}
        if self.backup:
            part["door_salt"] = self.club.door_salt
        grading = self.grading
        part["grading"] = {
            "enabled": grading.enabled if grading else True,
            "min_hands": grading.min_hands if grading else grade_core.MIN_HANDS,
            "ladder_by_grade": grading.ladder_by_grade if grading else False,
        }
        return part

    def player_part(self, pk: int) -> dict[str, Any]:
        email, email_results = self.player_emails[pk]
        part: dict[str, Any] = {}
        if self.backup:
            part["email"] = email
        part["email_results"] = email_results
        if self.backup:
            part["account"] = self.username(self.player_users[pk])
        part["public_grade"] = pk not in self.hidden_grades
        return part

    @staticmethod
    def season_part(season: Any) -> dict[str, Any]:
        return {
            "standings_method": season.standings_method,
            "min_nights": season.min_nights,
            "best_nights": season.best_nights,
        }

    def night_part(self, pk: int) -> dict[str, Any]:
        night = self.nights[pk]
        part: dict[str, Any] = {
            "counts_in_standings": night["counts_in_standings"],
            "closed_at": moment(night["closed_at"]),
            "closed_by": self.username(night["closed_by_id"]),
            "publish_after": moment(night["publish_after"]),
            "published_at": moment(night["published_at"]),
            "tournament": self.tournament_part(pk),
            "publications": [
                self.publication_part(publication) for publication in self.publications[pk]
            ],
            "debts": [
                {
                    "number": number,
                    "payer": self.names[debt.payer_id],
                    "payee": self.names[debt.payee_id],
                    "amount": debt.amount,
                    "created_at": moment(debt.created_at),
                }
                for number, debt in enumerate(self.debts[pk], start=1)
            ],
            "settlements": [
                {
                    "debt": self.debt_numbers[debt_id],
                    "kind": s.kind,
                    "amount": s.amount,
                    "at": moment(s.at),
                    "by": self.username(s.by_id),
                    "note": s.note,
                    "via": s.via,
                    "netting": self.netting_numbers.get(s.netting_id) if s.netting_id else None,
                    "undone_at": moment(s.undone_at),
                    "undone_by": self.username(s.undone_by_id),
                }
                for debt_id, s in self.settlements[pk]
            ],
        }
        return part

    def tournament_part(self, night_id: int) -> dict[str, Any] | None:
        t = self.tournaments.get(night_id)
        if t is None:
            return None
        entries = sorted(self.entries[t.pk], key=lambda e: self.names[e.player_id])
        return {
            "name": t.name,
            "rounds": t.rounds,
            "hands_per_round": t.hands_per_round,
            "scoring_method": t.scoring_method,
            "public": t.is_public,
            "seed": t.seed,
            "current_round": t.current_round,
            "status": t.status,
            "extra_hands_allowed": t.extra_hands_allowed,
            "planned_max_meetings": t.planned_max_meetings,
            "director": self.username(t.director_id),
            "entries": [
                {
                    "player": self.names[e.player_id],
                    "joined_round": e.joined_round,
                    "withdrawn_after_round": e.withdrawn_after_round,
                }
                for e in entries
            ],
        }

    def publication_part(self, publication: Publication) -> dict[str, Any]:
        part: dict[str, Any] = {
            "number": publication.number,
            "at": moment(publication.at),
            "by": self.username(publication.by_id),
        }
        if self.backup:
            deliveries = sorted(
                self.deliveries[publication.pk], key=lambda d: self.names[d.player_id]
            )
            part["deliveries"] = [
                {
                    "player": self.names[d.player_id],
                    "email": d.email,
                    "status": d.status,
                    "attempts": d.attempts,
                    "error": d.error,
                    "next_attempt_at": moment(d.next_attempt_at),
                    "sent_at": moment(d.sent_at),
                }
                for d in deliveries
            ]
        return part

    def top_part(self) -> dict[str, Any]:
        """The file's own version-3 keys, beside `club`, `players`, `nights`..."""
        part: dict[str, Any] = {}
        if self.backup and self.whole_club:
            accounts = sorted(self.usernames.values())
            roles = {self.usernames[pk][0]: role for pk, role in self.members.items()}
            part["accounts"] = [
                {"username": username, "email": email, "role": roles.get(username)}
                for username, email in accounts
            ]
            part["invitations"] = sorted(
                (
                    {
                        "username": self.username(i.user_id),
                        "role": i.role,
                        "invited_by": self.username(i.invited_by_id),
                        "created_at": moment(i.created_at),
                    }
                    for i in self.invitations
                ),
                key=lambda row: row["username"] or "",
            )
        part["nettings"] = [
            {"number": number, "at": moment(n.at), "by": self.username(n.by_id), "amount": n.amount}
            for number, n in enumerate(self.nettings, start=1)
        ]
        if self.whole_club:
            part["arrivals"] = [
                {
                    "date": date.isoformat(),
                    "player": self.names[player_id],
                    "arrived_at": moment(arrived_at),
                    "via": via,
                }
                for date, player_id, arrived_at, via in self.arrivals
            ]
        if self.backup and self.whole_club:
            part["table_cards"] = [
                {
                    "number": card.number,
                    "label": card.label,
                    "issued_at": moment(card.issued_at),
                    "issued_by": self.username(card.issued_by_id),
                    "revoked_at": moment(card.revoked_at),
                    "revoked_by": self.username(card.revoked_by_id),
                    "salt": card.salt,
                    "token_hash": card.token_hash,
                }
                for card in self.cards
            ]
            part["audit"] = [
                {
                    "at": moment(event.at),
                    "action": event.action,
                    "subject": event.subject,
                    "night": self.night_refs.get(event.night_id) if event.night_id else None,
                    "night_label": event.night_label,
                    "user": self.username(event.user_id),
                    "device": event.device,
                    "link_label": event.link_label,
                    "before": event.before,
                    "after": event.after,
                }
                for event in self.audit
            ]
        return part
