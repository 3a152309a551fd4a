from club.models.arrivals import Arrival
from club.models.audit import AuditEvent
from club.models.clubs import Club, Membership, Player, Role
from club.models.grades import (
    Grade,
    GradeBacklog,
    GradeLine,
    GradeNight,
    GradeOptOut,
    GradeSettings,
)
from club.models.hands import Hand, HandTombstone, Revoke, ScoreLine
from club.models.invitations import Invitation
from club.models.ledger import Debt, Delivery, Netting, PlayerClaim, Publication, Settlement
from club.models.nights import Night, Seat, Table
from club.models.rate_limits import RateWindow
from club.models.rules import RuleSet
from club.models.seasons import Season, StandingsMethod
from club.models.sheets import NightSheetCache
from club.models.staging import StagedUpload
from club.models.table_cards import TableCard
from club.models.table_links import TableLink
from club.models.totals import NightTotal
from club.models.tournaments import Entry, Tournament

__all__ = [
    "Arrival",
    "AuditEvent",
    "Club",
    "Debt",
    "Delivery",
    "Entry",
    "Grade",
    "GradeBacklog",
    "GradeLine",
    "GradeNight",
    "GradeOptOut",
    "GradeSettings",
    "Hand",
    "HandTombstone",
    "Invitation",
    "Membership",
    "Netting",
    "Night",
    "NightSheetCache",
    "NightTotal",
    "Player",
    "PlayerClaim",
    "Publication",
    "RateWindow",
    "Revoke",
    "Role",
    "RuleSet",
    "ScoreLine",
    "Season",
    "Seat",
    "Settlement",
    "StagedUpload",
    "StandingsMethod",
    "Table",
    "TableCard",
    "TableLink",
    "Tournament",
]
