from __future__ import annotations

import copy

from django.db import models

import scoring

# Each stored rule set's rules, read once a process: a save reads its rule set twice (with the
# table, then under the night's lock), each time as a new instance. Keyed by the row and checked
# against the data it was read from, so an edited rule set is read again; scoring.RuleSet is
# frozen, and nothing changes its stakes, so one copy serves every request.
_PARSED: dict[int, tuple[dict, scoring.RuleSet]] = {}
_PARSED_MAX = 1024


def _parsed(pk: int | None, data: dict) -> tuple[dict, scoring.RuleSet]:
    known = _PARSED.get(pk) if pk is not None else None
    if known is not None and known[0] == data:
        return known
    parsed = (copy.deepcopy(data), scoring.RuleSet.from_dict(data))
    if pk is not None:
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[pk] = parsed
    return parsed


class RuleSet(models.Model):
    """A club's stakes and options, stored as the scoring core's plain dict.

    Once any hand has been scored under it, it is frozen: hands keep the rules they were scored
    under (DESIGN.md section 4); a change means copying it to a new rule set.
    """

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="rule_sets")
    name = models.CharField(max_length=80)
    preset = models.CharField(
        max_length=20, blank=True, help_text="The preset it was copied from, if any."
    )
    data = models.JSONField(help_text="scoring.RuleSet.to_dict()")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_ruleset"  # the table it had in the one app
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="ruleset_name_unique_in_club"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The admin's check (set-up's forms and services make the same): the stakes count in the
        club's unit, or in plain units or points."""
        from django.core.exceptions import ValidationError

        from club.lib.money import unit_mismatch

        if self.club_id is None or not isinstance(self.data, dict):
            return
        problem = unit_mismatch(self.club, str(self.data.get("unit", "units")))
        if problem is not None:
            raise ValidationError(problem)

    @property
    def display_name(self) -> str:
        """The name as people read it: a preset's key ("hoyle") by its title ("Hoyle")."""
        return scoring.presets.title(self.name)

    @property
    def rules(self) -> scoring.RuleSet:
        cached = getattr(self, "_rules", None)
        if cached is None or cached[0] != self.data:
            cached = _parsed(self.pk, self.data)
            self._rules = cached
        return cached[1]

    @property
    def is_used(self) -> bool:
        """Hands were scored under it: as the rules they keep, or as the ladder of a season
        (ScoreLine.points) that has scored hands."""
        return (
            self.hands.exists()  # Hand.rule_set's reverse
            or self.ladder_seasons.filter(score_lines__isnull=False).exists()
        )

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.club_id, None
