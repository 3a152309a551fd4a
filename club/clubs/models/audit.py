from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from club.core.prepared import PreparedInsert
from club.lib import live_marks, live_push


class AuditEvent(models.Model):
    """Who changed what and when, with the values before and after."""

    class Action(models.TextChoices):
        CREATE = "create", "entered"
        UPDATE = "update", "edited"
        DELETE = "delete", "deleted"
        CLOSE = "close", "closed"
        REOPEN = "reopen", "reopened"
        CONFIRM = "confirm", "confirmed"
        ISSUE = "issue", "issued"
        REVOKE = "revoke", "revoked"

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="audit_events")
    # An event outlives what it describes: deleting a night keeps its events (night becomes
    # NULL) and night_label still says which night they were about.
    night = models.ForeignKey(
        "play.Night", on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_events"
    )
    night_label = models.CharField(
        max_length=160, blank=True, help_text='The night, readable: "Club night 20 Nov 2026".'
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # A change made through a table's link (no user): the link, and the name the person gave
    # their phone, if any. The trail reads "Table 2's link (Ann's phone)".
    link = models.ForeignKey(
        "play.TableLink", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    device = models.CharField(max_length=40, blank=True)
    # "Table 2's link", written with the event so the trail still reads after the table is gone.
    link_label = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=10, choices=Action)
    subject = models.CharField(max_length=120, help_text='What changed, e.g. "Table 2, hand 7".')
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        db_table = "club_auditevent"  # the table it had in the one app
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["night", "at"], name="audit_night_at")]

    def __str__(self) -> str:
        return f"{self.user} {self.get_action_display()} {self.subject}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.night is not None and not self.night_label:
            self.night_label = self.night.audit_label()
        if self._state.adding and self.pk is None and not args and set(kwargs) <= _PLAIN_INSERT:
            # Every change writes one (a hand's save too): its INSERT is built once a process.
            _NEW_EVENTS.create(self, using=kwargs.get("using") or "default")
        else:
            super().save(*args, **kwargs)
        if self.night_id is not None:
            # Every change to a night writes an event: live pages must look again (the marks
            # first, so that a page told by push does not get the old mark's "nothing changed").
            live_marks.forget_on_commit(self.night_id)
            live_push.changed_on_commit(night_id=self.night_id)


_NEW_EVENTS: PreparedInsert[AuditEvent] = PreparedInsert(AuditEvent)
_PLAIN_INSERT = {"force_insert", "using"}  # what objects.create() passes
