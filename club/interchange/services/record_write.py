"""Writing version 3's rest of a club's record, inside the import's one transaction
(club.interchange.services.importer): the club's settings, accounts and members, invitations,
players'
addresses, each night's publications, tournament, money owed and its payments, nettings,
arrivals, table cards and the audit trail.

Every moment the file gives is written as it is (when a debt was made, a payment marked, a card
issued), so a restored club's pages and a second export read as the first. Restored accounts get
a random password nobody knows: their owners set their own through the password-reset email
(docs/operators.md).

Into an existing club (a merge) only the nights' own records are added (publications, tournament,
money owed and what settled it); the club's settings, members, cards, arrivals and audit trail
stay the club's, and who did what is not carried over (no account is made or changed).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from club.clubs.models import AuditEvent, Club, Invitation, Membership, Player
from club.grades.models import GradeOptOut, GradeSettings
from club.interchange.format.record_data import NightRecord, Record
from club.lib.names import name_key
from club.money.models import Debt, Delivery, Netting, Publication, Settlement
from club.play.models import Arrival, Night, TableCard
from club.tournaments.models.tournaments import Entry, Tournament

BATCH = 500


def create_keeping(model: type[Any], objects: Sequence[Any], kept: Sequence[str]) -> list[Any]:
    """bulk_create, then write back the `kept` fields (auto_now_add moments), which Django
    stamps with the time of the insert."""
    if not objects:
        return []
    wanted = [[getattr(obj, f) for f in kept] for obj in objects]
    created = model.objects.bulk_create(objects, batch_size=BATCH)
    for obj, values in zip(created, wanted, strict=True):
        for f, value in zip(kept, values, strict=True):
            setattr(obj, f, value)
    model.objects.bulk_update(created, list(kept), batch_size=BATCH)
    return list(created)


class RecordWriter:
    def __init__(
        self,
        record: Record,
        club: Club,
        *,
        restoring: bool,
        problem: Callable[[str, str], None],
    ) -> None:
        self.record = record
        self.club = club
        self.restoring = restoring
        self.problem = problem
        self.users: dict[str, Any] = {}
        self.debts: dict[tuple[int, int], Debt] = {}  # (night pk, number) -> debt
        self.pending: list[tuple[Night, NightRecord]] = []
        self.counts = {"members": 0, "invitations": 0, "debts": 0, "payments": 0}

    def user(self, username: str | None) -> Any:
        return None if username is None else self.users.get(username)

    # The club -----------------------------------------------------------------------------------

    def settings(self, grading: dict[str, Any] | None) -> None:
        if not self.restoring:
            return
        if grading is not None:
            GradeSettings.objects.update_or_create(club=self.club, defaults=grading)

    def accounts(self) -> None:
        """Restoring: every account the file names, made anew (no usable password) or found by
        its user name with the same email; members and open invitations."""
        if not self.restoring or self.record.accounts is None:
            return
        User = get_user_model()
        wanted = {a.username: a for a in self.record.accounts}
        have = {u.username: u for u in User.objects.filter(username__in=list(wanted))}
        for username, account in wanted.items():
            found = have.get(username)
            if found is not None:
                if (found.email or "").lower() != account.email.lower():
                    self.problem(
                        f"account {username!r}",
                        f"this server has an account {username!r} with another email: rename "
                        "one of them",
                    )
                    continue
                self.users[username] = found
                continue
            # A long random password nobody knows: the owner sets their own through the reset
            # email (Django's reset sends nothing to an account with no usable password).
            self.users[username] = User.objects.create_user(
                username=username, email=account.email, password=secrets.token_urlsafe(32)
            )
        memberships = [
            Membership(user=self.users[a.username], club=self.club, role=a.role)
            for a in self.record.accounts
            if a.role is not None and a.username in self.users
        ]
        Membership.objects.bulk_create(memberships)
        self.counts["members"] = len(memberships)
        invitations = [
            Invitation(
                club=self.club,
                user=self.users[i.username],
                role=i.role,
                invited_by=self.user(i.invited_by),
                created_at=i.created_at,
            )
            for i in self.record.invitations or []
            if i.username in self.users
        ]
        create_keeping(Invitation, invitations, ["created_at"])
        self.counts["invitations"] = len(invitations)

    def players(self, players: dict[str, Player], new: set[str], doc_players: list[Any]) -> None:
        """Addresses, accounts and public grades of the players this import made."""
        changed, hidden = [], []
        for data in doc_players:
            player = players.get(name_key(data.name))
            if data.record is None or player is None or data.name not in new:
                continue
            player.email = data.record.email
            player.email_results = data.record.email_results
            if self.restoring:
                player.user = self.user(data.record.account)
            changed.append(player)
            if not data.record.public_grade:
                hidden.append(GradeOptOut(player=player))
        Player.objects.bulk_update(changed, ["email", "email_results", "user"], batch_size=BATCH)
        GradeOptOut.objects.bulk_create(hidden)

    # Nights -------------------------------------------------------------------------------------

    def night_fields(self, record: NightRecord | None) -> dict[str, Any]:
        if record is None:
            return {}
        return {
            "counts_in_standings": record.counts_in_standings,
            "closed_at": record.closed_at,
            "closed_by": self.user(record.closed_by),
            "publish_after": record.publish_after,
            "published_at": record.published_at,
        }

    def night(self, night: Night, record: NightRecord, players: dict[str, Player]) -> None:
        """The night's tournament, publications and debts (payments come after the nettings)."""

        def player(name: str) -> Player:
            return players[name_key(name)]

        t = record.tournament
        if t is not None:
            tournament = Tournament.objects.create(
                club=self.club,
                night=night,
                name=t.name,
                rounds=t.rounds,
                hands_per_round=t.hands_per_round,
                scoring_method=t.scoring_method,
                is_public=t.public,
                seed=t.seed,
                current_round=t.current_round,
                status=t.status,
                extra_hands_allowed=t.extra_hands_allowed,
                planned_max_meetings=t.planned_max_meetings,
                director=self.user(t.director),
            )
            Entry.objects.bulk_create(
                Entry(
                    tournament=tournament,
                    player=player(e.player),
                    joined_round=e.joined_round,
                    withdrawn_after_round=e.withdrawn_after_round,
                )
                for e in t.entries
            )
        publications = create_keeping(
            Publication,
            [
                Publication(night=night, number=p.number, at=p.at, by=self.user(p.by))
                for p in record.publications
            ],
            ["at"],
        )
        Delivery.objects.bulk_create(
            [
                Delivery(
                    publication=publication,
                    player=player(d.player),
                    email=d.email,
                    status=d.status,
                    attempts=d.attempts,
                    error=d.error,
                    next_attempt_at=d.next_attempt_at,
                    sent_at=d.sent_at,
                )
                for publication, data in zip(publications, record.publications, strict=True)
                for d in data.deliveries
            ],
            batch_size=BATCH,
        )
        debts = create_keeping(
            Debt,
            [
                Debt(
                    club=self.club,
                    night=night,
                    payer=player(d.payer),
                    payee=player(d.payee),
                    amount=d.amount,
                    created_at=d.created_at,
                )
                for d in record.debts
            ],
            ["created_at"],
        )
        for debt, data in zip(debts, record.debts, strict=True):
            self.debts[(night.pk, data.number)] = debt
        self.counts["debts"] += len(debts)
        self.pending.append((night, record))

    def settlements(self) -> None:
        """The nettings, then every night's payments, nettings and voids."""
        nettings = create_keeping(
            Netting,
            [
                Netting(club=self.club, at=n.at, by=self.user(n.by), amount=n.amount)
                for n in self.record.nettings
            ],
            ["at"],
        )
        by_number = {
            data.number: netting
            for netting, data in zip(nettings, self.record.nettings, strict=True)
        }
        rows = []
        for night, record in self.pending:
            for s in record.settlements:
                rows.append(
                    Settlement(
                        debt=self.debts[(night.pk, s.debt)],
                        amount=s.amount,
                        kind=s.kind,
                        netting=by_number.get(s.netting) if s.netting else None,
                        at=s.at,
                        by=self.user(s.by),
                        note=s.note,
                        via=s.via,
                        undone_at=s.undone_at,
                        undone_by=self.user(s.undone_by),
                    )
                )
        create_keeping(Settlement, rows, ["at"])
        self.counts["payments"] = len(rows)

    # The club's other records -------------------------------------------------------------------

    def club_records(
        self, players: dict[str, Player], nights: dict[tuple[str, Any, str], Night]
    ) -> None:
        if not self.restoring:
            return
        record = self.record
        create_keeping(
            Arrival,
            [
                Arrival(
                    club=self.club,
                    date=a.date,
                    player=players[name_key(a.player)],
                    arrived_at=a.arrived_at,
                    via=a.via,
                )
                for a in record.arrivals or []
            ],
            ["arrived_at"],
        )
        cards = record.table_cards or []
        taken = set(
            TableCard.objects.filter(token_hash__in=[c.token_hash for c in cards]).values_list(
                "token_hash", flat=True
            )
        )
        for card in cards:
            if card.token_hash in taken:
                self.problem(
                    f"table card {card.number}",
                    "its token is already a card on this server (is the club here already?)",
                )
        if taken:
            return
        # Inserted stamped now, a revoked card revoked later still (the database checks a card
        # is revoked after it was issued, and that one card a number is live), then given its
        # own moments in one UPDATE a batch.
        later = timezone.now() + dt.timedelta(days=1)
        made = TableCard.objects.bulk_create(
            [
                TableCard(
                    club=self.club,
                    number=c.number,
                    label=c.label,
                    salt=c.salt,
                    token_hash=c.token_hash,
                    issued_by=self.user(c.issued_by),
                    revoked_at=later if c.revoked_at else None,
                    revoked_by=self.user(c.revoked_by),
                )
                for c in cards
            ]
        )
        for made_card, data in zip(made, cards, strict=True):
            made_card.issued_at, made_card.revoked_at = data.issued_at, data.revoked_at
        TableCard.objects.bulk_update(made, ["issued_at", "revoked_at"], batch_size=BATCH)
        create_keeping(
            AuditEvent,
            [
                AuditEvent(
                    club=self.club,
                    night=nights.get(e.night) if e.night else None,
                    night_label=e.night_label,
                    user=self.user(e.user),
                    device=e.device,
                    link_label=e.link_label,
                    at=e.at,
                    action=e.action,
                    subject=e.subject,
                    before=e.before,
                    after=e.after,
                )
                for e in record.audit or []
            ],
            ["at"],
        )

    def lines(self) -> list[str]:
        record = self.record
        lines = [
            f"Money owed: {self.counts['debts']} debts, {self.counts['payments']} payments "
            f"and settlements"
        ]
        if self.restoring:
            secretaries = sorted(a.username for a in record.accounts or [] if a.role == "secretary")
            lines.append(f"Secretaries: {', '.join(secretaries) or 'none'}")
            lines.append(
                f"Members: {self.counts['members']}, open invitations: "
                f"{self.counts['invitations']}, table cards: {len(record.table_cards or [])}, "
                f"arrivals: {len(record.arrivals or [])}, audit events: {len(record.audit or [])}"
            )
        return lines
