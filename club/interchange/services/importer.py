"""Writing a checked club data file into the database: all or nothing.

Into a new club (its slug from the file, or another one), or into an existing club, where the
file's nights are added: players and rule sets are matched by name (missing players are created),
and a night the club already has (same season, date and title) is refused.

Every hand is scored by the hand service's own code (club.play.services.hand_entry.score_entry,
apply_result
and score_line_rows, the path the table page and seed_demo take), under its season's rule set, so
the score lines, night totals (the database's triggers) and ladder points are what the app would
write. Where the file gives `amounts`, they must equal the app's. Problems are collected through the
whole file and then the transaction is rolled back: a preview (`dry_run`) runs the same code and
rolls back too, so it shows exactly what the import would do.

A version-3 file's rest of the record (money owed, publications, members, cards, the audit
trail...) is written by club.interchange.services.record_write in the same transaction: all of it
into a
new club (a restore), the nights' part only into an existing one (a merge).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

import scoring
from club.clubs.models import AuditEvent, Club, Player, RuleSet, Season
from club.grades.services import grades
from club.interchange.format.document import (
    Document,
    Existing,
    HandData,
    ImportRefused,
    NightData,
    Problem,
    TableData,
    without_name,
)
from club.interchange.format.record_data import Record
from club.interchange.services.bulk_insert import BATCH, insert_rows, insert_values
from club.interchange.services.export import club_unit
from club.interchange.services.import_summary import Summary
from club.interchange.services.record_write import RecordWriter
from club.lib.money import unit_mismatch
from club.lib.names import name_key
from club.money.models import Debt
from club.money.services import ledger
from club.play.models import Hand, Night, NightTotal, Revoke, ScoreLine, Seat, Table
from club.play.services.hand_entry import HandEntry, score_entry
from club.play.services.hands import apply_result, revoke_rows, score_line_rows
from club.tournaments.models.tournaments import Entry, Tournament

UNIT_SETTINGS: dict[str, dict[str, Any]] = {
    "pence": {"unit_kind": Club.UnitKind.MONEY, "currency_symbol": "£", "minor_units": 100},
    "cents": {"unit_kind": Club.UnitKind.MONEY, "currency_symbol": "$", "minor_units": 100},
    "points": {"unit_kind": Club.UnitKind.POINTS},
}


class _Preview(Exception):
    def __init__(self, summary: Summary) -> None:
        self.summary = summary


def existing_for(club: Club | None) -> Existing:
    """The names a file imported into `club` may use without defining them."""
    if club is None:
        return Existing()
    return Existing(
        players={name_key(name): name for name in club.players.values_list("name", flat=True)},
        rule_sets=frozenset(club.rule_sets.values_list("name", flat=True)),
        seasons={
            name: (start, end)
            for name, start, end in club.seasons.values_list("name", "start", "end")
        },
    )


def import_document(
    document: Document,
    *,
    into: Club | None = None,
    slug: str | None = None,
    user: User | None = None,
    source: str = "",
    dry_run: bool = False,
    rate_grades: bool = True,
    carry_settle_ups: bool = False,
) -> tuple[Club | None, Summary]:
    """Import the document; returns the club and what was added. ImportRefused (with every
    problem) when anything is wrong, and then nothing is written. `dry_run` checks and counts
    everything the import would do and writes nothing (the club is None). The club's Solo grade
    is rated again after the commit unless `rate_grades` is False. With `carry_settle_ups`, each
    closed night the file gives no `debts` gets the money owed that closing it makes (the
    ledger's sync_night); a night with debts in the file keeps exactly those."""
    try:
        with transaction.atomic():
            writer = _Writer(document, into, slug, user, source, carry_settle_ups)
            club, summary = writer.run()
            if dry_run:
                raise _Preview(summary)
            # The Solo grade rates hands in date order: imported nights may come before the
            # club's own, so the club's grades are rated again from scratch, after the commit,
            # by the grades' catch-up (a task; pages say "Grades updating" meanwhile), so the
            # import need not wait for it. `rate_grades=False` leaves that to a later
            # `rebuild_grades` (a restore of many clubs, the benchmark).
            if rate_grades:
                grades.rebuild_later(club)
    except _Preview as preview:
        return None, preview.summary
    analyze()
    return club, summary


def analyze() -> None:
    """Fresh planner statistics for the tables a bulk import filled (PostgreSQL): stale ones made
    the first nights after an import slow."""
    if connection.vendor != "postgresql":
        return
    tables = ", ".join(
        model._meta.db_table
        for model in (Player, Season, Night, Table, Seat, Hand, ScoreLine, NightTotal)
    )
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {tables}")


class _Writer:
    def __init__(
        self,
        document: Document,
        into: Club | None,
        slug: str | None,
        user: User | None,
        source: str,
        carry_settle_ups: bool = False,
    ) -> None:
        self.doc = document
        self.carry_settle_ups = carry_settle_ups
        self.into = into
        self.slug = slug
        self.user = user if user is not None and user.is_authenticated else None
        self.source = source
        self.problems: list[Problem] = []
        self.now = timezone.now()

    def problem(self, where: str, message: str) -> None:
        self.problems.append(Problem(where, message))

    def stop_if_problems(self) -> None:
        if self.problems:
            raise ImportRefused(self.problems)

    def run(self) -> tuple[Club, Summary]:
        club = self.club()
        summary = Summary(club.name, club.slug, self.into is None)
        self.summary = summary
        record = self.doc.record or Record()
        self.record = RecordWriter(record, club, restoring=self.into is None, problem=self.problem)
        self.record.settings(self.doc.club.grading)
        self.record.accounts()
        self.stop_if_problems()
        rule_sets = self.rule_sets(club)
        self.stop_if_problems()  # a season may name a rule set refused for its unit
        players = self.players(club)
        self.record.players(players, set(summary.players_added), self.doc.players)
        seasons = self.seasons(club, rule_sets)
        self.stop_if_problems()
        existing_nights = set(
            Night.objects.filter(season__club=club).values_list("season_id", "date", "title")
        )
        events: list[AuditEvent] = []
        made: dict[tuple[str, Any, str], Night] = {}
        bare: list[Night] = []  # closed nights the file gives no debts
        for night_data in self.doc.nights:
            season = seasons.get(night_data.season)
            if season is None:
                continue
            night = self.night(club, night_data, season, players, existing_nights)
            if night is not None:
                events.append(self.audit(club, night, night_data))
                made[(night_data.season, night_data.date, night_data.title)] = night
                if night_data.record is not None:
                    self.record.night(night, night_data.record, players)
                if night_data.closed and (night_data.record is None or not night_data.record.debts):
                    bare.append(night)
        self.stop_if_problems()
        self.record.settlements()
        self.record.club_records(players, made)
        self.stop_if_problems()
        self.settle_ups(bare)
        if self.doc.record is not None:
            summary.record = self.record.lines()
        if record.audit is not None and self.into is None:
            # A backup brings its own audit trail: the restore adds nothing to it, so the
            # restored club's record (and its next backup) reads as the one backed up.
            return club, summary
        events.append(
            AuditEvent(
                club=club,
                user=self.user,
                action=AuditEvent.Action.CREATE,
                subject=("Club data imported" + (f" from {self.source}" if self.source else ""))[
                    :120
                ],
                after={
                    "file": self.source,
                    "nights": len(summary.nights),
                    "hands": summary.hands,
                    "players added": summary.players_added,
                    "seasons added": summary.seasons_added,
                    "rule sets added": summary.rule_sets_added,
                }
                | (
                    {
                        "settle-ups carried as money owed": summary.bare_settle_ups,
                        "payments carried": summary.bare_payments,
                    }
                    if summary.settle_ups_carried
                    else {}
                ),
            )
        )
        AuditEvent.objects.bulk_create(events, batch_size=BATCH)
        return club, summary

    # Closed nights without money owed -------------------------------------------------------------

    def settle_ups(self, nights: list[Night]) -> None:
        """Count the closed nights without debts whose settle-up has payments, and with
        `carry_settle_ups` make their debts as closing each night does (ledger.sync_night)."""
        sizes = ledger.settle_up_sizes(nights)
        owing = [night for night in nights if sizes[night.pk]]
        self.summary.bare_settle_ups = len(owing)
        self.summary.bare_payments = sum(sizes[night.pk] for night in owing)
        if not (owing and self.carry_settle_ups):
            return
        for night in owing:
            ledger.sync_night(night, self.user)
        self.summary.settle_ups_carried = True
        self.summary.bare_payments = Debt.objects.filter(night__in=owing).count()

    # The club and its set-up -------------------------------------------------------------------

    def club(self) -> Club:
        data = self.doc.club
        if self.into is not None:
            unit = club_unit(self.into)
            if unit != data.unit:
                self.problem(
                    "club",
                    f"the file's amounts are in {data.unit}, but {self.into.name} keeps {unit}",
                )
                self.stop_if_problems()
            return self.into
        slug = self.slug or data.slug
        if not slug:
            self.problem("club", "the file gives no slug: give the new club one")
        elif Club.objects.filter(slug=slug).exists():
            self.problem(
                "club",
                f"a club with the slug {slug!r} exists already: give the new club another slug "
                "(--slug), or add the nights to that club (--into)",
            )
        self.stop_if_problems()
        return Club.objects.create(
            name=data.name,
            slug=slug,
            is_public=data.public,
            **{**UNIT_SETTINGS[data.unit], **data.settings},
        )

    def rule_sets(self, club: Club) -> dict[str, RuleSet]:
        found = {r.name: r for r in club.rule_sets.all()}
        for data in self.doc.rule_sets:
            have = found.get(data.name)
            if have is not None:
                if without_name(scoring.RuleSet.from_dict(have.data).to_dict()) != without_name(
                    data.data
                ):
                    self.problem(
                        data.where,
                        f"the club has a rule set called {data.name!r} with other stakes or "
                        "options: rename one of them",
                    )
                continue
            problem = unit_mismatch(club, data.rules.unit, remedy="change the rule set's unit")
            if problem is not None:
                self.problem(data.where, f"{data.name}: {problem}")
                continue
            found[data.name] = RuleSet.objects.create(
                club=club, name=data.name, preset=data.preset, data=data.data
            )
            self.summary.rule_sets_added.append(data.name)
        return found

    def players(self, club: Club) -> dict[str, Player]:
        found = {name_key(p.name): p for p in club.players.all()}
        # bulk_create skips Player.save(), which fills the key the uniqueness constraint uses.
        new = [
            Player(club=club, name=p.name, active=p.active, name_key=name_key(p.name))
            for p in self.doc.players
            if name_key(p.name) not in found
        ]
        for player in Player.objects.bulk_create(new):
            found[name_key(player.name)] = player
            self.summary.players_added.append(player.name)
        return found

    def seasons(self, club: Club, rule_sets: dict[str, RuleSet]) -> dict[str, Season]:
        found = {s.name: s for s in club.seasons.select_related("rule_set", "standings_rule_set")}
        for data in self.doc.seasons:
            have = found.get(data.name)
            if have is not None:
                ladder = have.standings_rule_set.name if have.standings_rule_set else None
                if have.rule_set.name != data.rule_set or ladder != data.ladder_rule_set:
                    theirs = f"{data.rule_set!r}" + (
                        f" with the ladder {data.ladder_rule_set!r}" if data.ladder_rule_set else ""
                    )
                    ours = f"{have.rule_set.name!r}" + (
                        f" with the ladder {ladder!r}" if ladder else ""
                    )
                    self.problem(
                        data.where,
                        f"the club's season {data.name!r} plays under {ours}, the file's under "
                        f"{theirs}",
                    )
                continue
            ladder_rules = rule_sets[data.ladder_rule_set] if data.ladder_rule_set else None
            found[data.name] = Season.objects.create(
                club=club,
                name=data.name,
                start=data.start,
                end=data.end,
                rule_set=rule_sets[data.rule_set],
                standings_rule_set=ladder_rules,
                **data.settings,
            )
            self.summary.seasons_added.append(data.name)
        return found

    # Nights, tables and hands -------------------------------------------------------------------

    def night(
        self,
        club: Club,
        data: NightData,
        season: Season,
        players: dict[str, Player],
        existing: set[tuple[int, dt.date, str]],
    ) -> Night | None:
        if (season.pk, data.date, data.title) in existing:
            self.problem(
                data.where,
                f"the club already has this night in {season.name}: it was imported before, "
                "or entered by hand",
            )
            return None
        if not season.start <= data.date <= season.end:
            self.problem(
                data.where,
                f"the club's season {season.name!r} runs from {season.start} to {season.end}, "
                "so it does not contain this night",
            )
            return None
        existing.add((season.pk, data.date, data.title))
        closed = data.closed
        fields: dict[str, Any] = {
            "closed_at": self.now if closed else None,
            "closed_by": self.user if closed else None,
        }
        # Version 3 says when and by whom, its publication and whether it counts.
        fields.update(self.record.night_fields(data.record))
        night = Night.objects.create(
            season=season,
            date=data.date,
            title=data.title,
            status=Night.Status.CLOSED if closed else Night.Status.OPEN,
            **fields,
        )
        night.season = season
        tables = Table.objects.bulk_create(
            Table(
                night=night,
                round_number=t.round or 1,
                number=t.number,
                first_dealer=t.first_dealer,
            )
            for t in data.tables
        )
        seats: list[Seat] = []
        seated: list[list[Player]] = []
        for table, table_data in zip(tables, data.tables, strict=True):
            table.night = night
            at_table = [players[name_key(name)] for name in table_data.seats]
            seated.append(at_table)
            seats.extend(Seat(table=table, position=i, player=p) for i, p in enumerate(at_table))
        Seat.objects.bulk_create(seats, batch_size=BATCH)
        hands: list[Hand] = []
        for table, table_data, at_table in zip(tables, data.tables, seated, strict=True):
            hands.extend(self.table_hands(table, table_data, at_table, season, players))
        insert_rows(Hand, hands, self.now)
        ids = {
            (table_id, number): pk
            for pk, table_id, number in Hand.objects.filter(table__night=night).values_list(
                "pk", "table_id", "number"
            )
        }
        lines: list[dict[str, Any]] = []
        revokes: list[Revoke] = []
        for hand in hands:
            hand.pk = ids[(hand.table_id, hand.number)]
            hand._state.adding = False
            # Each unsaved hand carries its scoring until its lines are written.
            lines.extend(score_line_rows(hand, hand._scored))  # type: ignore[attr-defined]
            revokes.extend(revoke_rows(hand, hand._scored.entry))  # type: ignore[attr-defined]
        insert_values(ScoreLine, lines, self.now)
        if revokes:
            insert_rows(Revoke, revokes, self.now)
        if data.is_tournament and (data.record is None or data.record.tournament is None):
            self.tournament(club, night, data, tables, seated)
        self.summary.nights.append(data.label)
        self.summary.tables += len(tables)
        self.summary.hands += len(hands)
        self.summary.score_lines += len(lines)
        return night

    def table_hands(
        self,
        table: Table,
        data: TableData,
        seated: list[Player],
        season: Season,
        players: dict[str, Player],
    ) -> list[Hand]:
        rule_set = season.rule_set
        rules = rule_set.rules

        def player(name: str | None) -> Player | None:
            return None if name is None else players[name_key(name)]

        hands = []
        for data_hand in data.hands:
            entry = HandEntry(
                dealer=players[name_key(data_hand.dealer)],
                contract=data_hand.contract,
                declarer=player(data_hand.declarer),
                partner=player(data_hand.partner),
                tricks=data_hand.tricks,
                revokes=tuple(players[name_key(n)] for n in data_hand.revokes),
                last_trick_by=player(data_hand.last_trick_by),
                trump=data_hand.trump,
                notes=data_hand.notes,
                penalty=data_hand.penalty,
                penalty_by=player(data_hand.penalty_by),
                turned_suit=data_hand.turned_suit,
                wrong_cards=tuple(players[name_key(n)] for n in data_hand.wrong_cards),
            )
            try:
                scored = score_entry(table, entry, rules, seats=seated)
            except scoring.InvalidHand as error:
                self.problem(data_hand.where, str(error))
                continue
            self.check_scored(data_hand, scored, rule_set)
            hand = Hand(
                table=table,
                number=data_hand.number,
                rule_set=rule_set,
                entered_by=self.user,
                updated_by=self.user,
            )
            apply_result(hand, scored)
            hand.awaiting_confirmation = data_hand.awaiting_confirmation
            # Each unsaved hand carries its scoring until its lines are written.
            hand._scored = scored  # type: ignore[attr-defined]
            hands.append(hand)
        return hands

    def check_scored(self, data: HandData, scored: Any, rule_set: RuleSet) -> None:
        out = scored.sitting_out.name if scored.sitting_out is not None else None
        if data.sitting_out is not None and data.sitting_out != out:
            self.problem(
                data.where,
                f"'sitting_out' is {data.sitting_out}, but with {data.dealer} dealing "
                f"{out} sits out under the rule set {rule_set.name!r}",
            )
        if data.amounts is None:
            return
        app = {p.name: scored.amount(p) for p in scored.players}
        differences = []
        for name, amount in app.items():
            given = data.amounts.get(name)
            if given is None:
                differences.append(f"{name}: the file gives no amount, the app scores {amount}")
            elif given != amount:
                differences.append(f"{name}: the file says {given}, the app scores {amount}")
        for name, given in data.amounts.items():
            if name not in app and given != 0:
                differences.append(f"{name} sits out, but the file says {given}")
        if differences:
            self.problem(
                data.where,
                f"the amounts differ from the app's under the rule set {rule_set.name!r}: "
                + "; ".join(differences),
            )

    def tournament(
        self,
        club: Club,
        night: Night,
        data: NightData,
        tables: list[Table],
        seated: list[list[Player]],
    ) -> None:
        """A night played in rounds becomes a tournament again, finished when the night is closed,
        with everyone seated in it entered from the first round they played."""
        rounds = max(t.round_number for t in tables)
        per_table = max((len(t.hands) for t in data.tables), default=1)
        tournament = Tournament.objects.create(
            club=club,
            night=night,
            name=(data.title or f"Tournament {data.date}")[:80],
            rounds=rounds,
            hands_per_round=min(60, max(1, per_table)),
            current_round=rounds,
            status=Tournament.Status.FINISHED if data.closed else Tournament.Status.RUNNING,
            director=self.user,
        )
        first_round: dict[int, tuple[Player, int]] = {}
        for table, at_table in zip(tables, seated, strict=True):
            for p in at_table:
                if p.pk not in first_round or table.round_number < first_round[p.pk][1]:
                    first_round[p.pk] = (p, table.round_number)
        Entry.objects.bulk_create(
            Entry(tournament=tournament, player=p, joined_round=r) for p, r in first_round.values()
        )

    def audit(self, club: Club, night: Night, data: NightData) -> AuditEvent:
        hands = {}
        for table in data.tables:
            label = f"table {table.number}"
            if table.round is not None:
                label = f"round {table.round}, {label}"
            hands[label] = len(table.hands)
        return AuditEvent(
            club=club,
            night=night,
            user=self.user,
            action=AuditEvent.Action.CREATE,
            subject=f"{night} imported"[:120],
            night_label=night.audit_label(),
            after={"file": self.source, "hands": hands},
        )
