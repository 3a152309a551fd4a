"""What an import adds (or, for a preview, would add), as the Import page and import_club say it."""

from __future__ import annotations

from dataclasses import dataclass, field

from club.lib.words import count


@dataclass
class Summary:
    """What an import adds (or, for a preview, would add)."""

    club: str
    slug: str
    new_club: bool
    players_added: list[str] = field(default_factory=list)
    rule_sets_added: list[str] = field(default_factory=list)
    seasons_added: list[str] = field(default_factory=list)
    nights: list[str] = field(default_factory=list)
    tables: int = 0
    hands: int = 0
    score_lines: int = 0
    record: list[str] = field(default_factory=list)  # version 3: what else came with the nights
    # Closed nights the file gives no `debts` whose settle-up has payments, and those payments:
    # carried as money owed (the ledger's debts, as closing the night makes them) when
    # `settle_ups_carried`, else left with no money owed.
    bare_settle_ups: int = 0
    bare_payments: int = 0
    settle_ups_carried: bool = False

    def settle_ups_line(self) -> str:
        """What became of the settle-ups of the closed nights without `debts` ("" when none)."""
        if not self.bare_settle_ups:
            return ""
        nights = count(self.bare_settle_ups, "closed night")
        whose = f"{nights}'" if self.bare_settle_ups != 1 else f"{nights}'s"
        ups = "settle-ups were" if self.bare_settle_ups != 1 else "settle-up was"
        if self.settle_ups_carried:
            return f"{whose} {ups} carried as money owed: {count(self.bare_payments, 'payment')}."
        return (
            f"{whose} {ups} not carried as money owed ({count(self.bare_payments, 'payment')}): "
            "the file gives no money owed for them, so their statements show none."
        )

    def lines(self) -> list[str]:
        """The summary as a secretary reads it (the command prints these)."""
        where = "new club" if self.new_club else "club"
        return [
            f"{where.capitalize()}: {self.club} (/c/{self.slug}/)",
            f"Seasons added: {', '.join(self.seasons_added) or 'none'}",
            f"Rule sets added: {', '.join(self.rule_sets_added) or 'none'}",
            f"Players added: {len(self.players_added)}"
            + (f" ({', '.join(self.players_added)})" if self.players_added else ""),
            f"Nights: {len(self.nights)}, tables: {self.tables}, hands: {self.hands}, "
            f"score lines: {self.score_lines}",
            *self.record,
            *([self.settle_ups_line()] if self.bare_settle_ups else []),
        ]
