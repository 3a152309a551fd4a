"""The interchange app's models, each in the table it had when the app was one (db_table)."""

from club.interchange.models.staging import StagedUpload

__all__ = ["StagedUpload"]
