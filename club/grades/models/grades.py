"""The Solo grade as the app keeps it (scoring/grade.py does the arithmetic).

`GradeLine` is the snapshot after each rated hand for each player in it: a correction restarts
from the lines before the corrected hand instead of from the club's first night. `GradeNight` is
each player's rating after each night they played (the player page's chart, the standings' trend)
and `Grade` their rating now. All three are derived data: `manage.py rebuild_grades` writes them
again from the hands, and club/grades/services/grades.py keeps them current as hands change.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring import grade as core


class GradeSettings(models.Model):
    """A club's choices about grades; a club without a row has the defaults."""

    club = models.OneToOneField("clubs.Club", on_delete=models.CASCADE, related_name="grading")
    enabled = models.BooleanField(
        default=True, help_text="Show grades on the standings and player pages."
    )
    min_hands = models.PositiveSmallIntegerField(
        default=core.MIN_HANDS, help_text="Rated hands before a grade stops being provisional."
    )
    ladder_by_grade = models.BooleanField(
        default=False, help_text="The standings table is ordered by grade rather than by money."
    )

    class Meta:
        db_table = "club_gradesettings"  # the table it had in the one app
        constraints = [
            models.CheckConstraint(
                condition=Q(min_hands__gte=1) & Q(min_hands__lte=10000),
                name="grade_settings_min_hands_1_to_10000",
            ),
        ]
        verbose_name_plural = "grade settings"

    def __str__(self) -> str:
        return f"Grades of {self.club_id}: {'on' if self.enabled else 'off'}"

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.club_id, None


class GradeOptOut(models.Model):
    """A player who asked not to be graded in public: their grade is shown only to themself (when
    their account is linked to their player record) and to the club's secretaries."""

    player = models.OneToOneField(
        "clubs.Player", on_delete=models.CASCADE, related_name="grade_opt_out"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_gradeoptout"  # the table it had in the one app

    def __str__(self) -> str:
        return f"{self.player_id} not graded in public"

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.player.club_id, None


class _Rating(models.Model):
    mu = models.FloatField()
    sigma = models.FloatField()
    hands = models.PositiveIntegerField()  # rated hands so far
    day = models.PositiveIntegerField()  # the date ordinal of the last rated hand

    class Meta:
        abstract = True

    @property
    def rating(self) -> core.Rating:
        return core.Rating(self.mu, self.sigma, self.hands, self.day)


class GradeLine(_Rating):
    """A player's rating just after one rated hand. `sort_key` is the order hands are rated in
    (services.grades.hand_key: night date, night id, round, hand id), as text that sorts so.

    A club has about as many of these as score lines (a million in the benchmark club), all
    written again by a rebuild: so the database keeps no foreign-key constraints on them (four
    deferred checks per row at commit would double a rebuild). Django's own cascade still deletes
    them with their hand, player, night or club, and the grade service deletes them first."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    hand = models.ForeignKey(
        "play.Hand", on_delete=models.CASCADE, related_name="grade_lines", db_constraint=False
    )
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    night = models.ForeignKey(
        "play.Night", on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    sort_key = models.CharField(max_length=48)

    class Meta:
        db_table = "club_gradeline"  # the table it had in the one app
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="grade_line_one_per_player"),
        ]
        indexes = [
            # A player's last line before a hand; the lines from a hand on.
            models.Index(fields=["player", "sort_key"], name="grade_line_player_key"),
            models.Index(fields=["club", "sort_key"], name="grade_line_club_key"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after hand {self.hand_id}: {self.mu:.2f}"


class GradeNight(_Rating):
    """A player's rating after the last hand they played on a night."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    night = models.ForeignKey("play.Night", on_delete=models.CASCADE, related_name="+")
    date = models.DateField()

    class Meta:
        db_table = "club_gradenight"  # the table it had in the one app
        constraints = [
            models.UniqueConstraint(fields=["player", "night"], name="grade_night_one_per_player"),
        ]
        indexes = [
            models.Index(fields=["player", "date", "night"], name="grade_night_player_date"),
            models.Index(fields=["club", "date", "night"], name="grade_night_club_date"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after night {self.night_id}: {self.mu:.2f}"


class Grade(_Rating):
    """A player's rating now (after their last rated hand)."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    player = models.OneToOneField("clubs.Player", on_delete=models.CASCADE, related_name="grade")

    class Meta:
        db_table = "club_grade"  # the table it had in the one app
        indexes = [models.Index(fields=["club", "mu"], name="grade_club_mu")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.mu:.2f}"


class GradeBacklog(models.Model):
    """A change the grades have not caught up with yet: a hand recorded, corrected or about to be
    deleted, named by its rating-order key (club.grades.services.grades.sort_key). A hand's save
    writes
    one row instead of rating the hand under a lock on the club; the background task
    (grades.drain) rates again from the earliest waiting key, as a correction always did, and
    deletes the rows it handled. While rows wait, pages say the grades are updating."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    from_key = models.CharField(max_length=60)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_gradebacklog"  # the table it had in the one app
        indexes = [models.Index(fields=["club", "from_key"], name="grade_backlog_club_key")]

    def __str__(self) -> str:
        return f"Grades of club {self.club_id} from {self.from_key}"
