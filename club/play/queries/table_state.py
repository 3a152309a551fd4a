"""What a hand's save reads of its table, in one query, under the table's lock: the last hand's
number, whether this entry (its client id) was recorded or deleted already, the figures of the
sheet's ETag, and each player's total so far. The save's answer (the new row, the totals, the
next form, the ETag) is drawn from this and the hand just written, with no query of its own."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.db import connection

from club.play.models import Hand, HandTombstone, ScoreLine


@dataclass
class TableState:
    last_number: int = 0
    resent_id: int | None = None  # a hand of this table already recorded from this entry
    deleted_number: int | None = None  # this entry's hand, since deleted at its table
    count: int = 0
    id_sum: int = 0
    version_sum: int = 0
    totals: dict[int, int] = field(default_factory=dict)  # player id -> total at the table

    def etag(self, status: str) -> str:
        """The sheet's ETag (club.play.queries.sheet_version) from these figures."""
        return f'"{status}-{self.count}-{self.id_sum}-{self.version_sum}"'

    def add(self, hand: Hand, amounts: dict[int, int]) -> None:
        """The state after `hand` was appended with these amounts (player id -> amount)."""
        self.last_number = hand.number
        self.count += 1
        self.id_sum += hand.pk
        self.version_sum += hand.version
        for player_id, amount in amounts.items():
            self.totals[player_id] = self.totals.get(player_id, 0) + amount


def table_state(table_id: int, client_id: uuid.UUID | None) -> TableState:
    hands = Hand._meta.db_table
    lines = ScoreLine._meta.db_table
    tombs = HandTombstone._meta.db_table
    cid = Hand._meta.get_field("client_id").get_db_prep_value(client_id, connection)
    sql = (
        f"SELECT 'h', MAX(number), MAX(CASE WHEN client_id = %s THEN id END), COUNT(id), "
        f"SUM(id), SUM(version) FROM {hands} WHERE table_id = %s "
        f"UNION ALL SELECT 't', s.player_id, SUM(s.amount), NULL, NULL, NULL FROM {lines} s "
        f"JOIN {hands} h ON h.id = s.hand_id WHERE h.table_id = %s GROUP BY s.player_id "
        f"UNION ALL SELECT 'd', number, NULL, NULL, NULL, NULL FROM {tombs} "
        f"WHERE client_id = %s AND table_id = %s"
    )
    state = TableState()
    with connection.cursor() as cursor:
        cursor.execute(sql, [cid, table_id, table_id, cid, table_id])
        for kind, a, b, count, ids, versions in cursor.fetchall():
            if kind == "h":
                state.last_number = a or 0
                state.resent_id = b
                state.count, state.id_sum, state.version_sum = count, ids or 0, versions or 0
            elif kind == "t":
                state.totals[a] = b
            else:
                state.deleted_number = a
    return state
