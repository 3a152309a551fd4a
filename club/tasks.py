"""The background tasks' old import path. The tasks are defined in club/services/publish.py;
tasks queued by an earlier release name `club.tasks.<task>`, and still find them here."""

from club.services.publish import publish_when_due, send_results

__all__ = ["publish_when_due", "send_results"]
