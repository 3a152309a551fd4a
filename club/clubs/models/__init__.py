"""The clubs app's models, each in the table it had when the app was one (db_table)."""

from club.clubs.models.audit import AuditEvent
from club.clubs.models.claims import PlayerClaim
from club.clubs.models.clubs import Club, Membership, Player, Role
from club.clubs.models.invitations import Invitation
from club.clubs.models.rate_limits import RateWindow
from club.clubs.models.rules import RuleSet
from club.clubs.models.seasons import Season, StandingsMethod

__all__ = [
    "AuditEvent",
    "Club",
    "Invitation",
    "Membership",
    "Player",
    "PlayerClaim",
    "RateWindow",
    "Role",
    "RuleSet",
    "Season",
    "StandingsMethod",
]
