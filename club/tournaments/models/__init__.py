"""The tournaments app's models, each in the table it had when the app was one (db_table)."""

from club.tournaments.models.tournaments import Entry, Tournament

__all__ = ["Entry", "Tournament"]
