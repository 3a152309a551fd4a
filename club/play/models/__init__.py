"""The play app's models, each in the table it had when the app was one (db_table)."""

from club.play.models.arrivals import Arrival
from club.play.models.hands import Hand, HandTombstone, Revoke, ScoreLine
from club.play.models.nights import Night, Seat, Table
from club.play.models.player_links import PlayerLink
from club.play.models.sheets import NightSheetCache
from club.play.models.table_cards import TableCard
from club.play.models.table_links import TableLink
from club.play.models.totals import NightTotal

__all__ = [
    "Arrival",
    "Hand",
    "HandTombstone",
    "Night",
    "NightSheetCache",
    "NightTotal",
    "PlayerLink",
    "Revoke",
    "ScoreLine",
    "Seat",
    "Table",
    "TableCard",
    "TableLink",
]
