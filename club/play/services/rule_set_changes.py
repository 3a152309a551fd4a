"""Changing what hands are scored under: a rule set's stakes (only while unused), a season's rule
set and its ladder (the season's hands scored again). Each locks the rows a hand's save locks
(club/play/services/locks.py), so a change and a save never cross."""

from __future__ import annotations

from django import forms
from django.contrib.auth.models import User
from django.db import transaction

import scoring
from club.clubs.models import AuditEvent, RuleSet, Season
from club.clubs.services.setup import SetupError, check_unit
from club.play.models import ScoreLine
from club.play.services.locks import lock_rule_sets, lock_season


def update_rule_set(
    rule_set: RuleSet, name: str, rules: scoring.RuleSet, user: User | None = None
) -> RuleSet:
    """Change an unused rule set's name and stakes. Its row is locked first: a hand being scored
    under it holds the same lock (club.play.services.locks), so either the change is saved before
    the
    hand reads the stakes, or the hand is saved first and the change is refused."""
    check_unit(rule_set.club, rules)
    with transaction.atomic():
        locked = lock_rule_sets([rule_set.pk])[rule_set.pk]
        if locked.is_used:
            raise SetupError(
                f"{locked.name} has scored hands, so it cannot change: copy it to a new rule set."
            )
        before = {"name": locked.name, "data": locked.data}
        locked.name = name
        locked.data = rules.copy(name=name).to_dict()
        locked.save(update_fields=["name", "data"])
        if user is not None and before != {"name": locked.name, "data": locked.data}:
            AuditEvent.objects.create(
                club_id=locked.club_id,
                user=user,
                action=AuditEvent.Action.UPDATE,
                subject=f"Rule set {name}"[:120],
                before=before,
                after={"name": locked.name, "data": locked.data},
            )
    rule_set.name, rule_set.data = locked.name, locked.data
    return locked


def save_season(form: forms.ModelForm[Season]) -> Season:
    """Save a season form. A season's rule set is fixed once it has scored hands: the season's row
    is locked first, as a hand being recorded locks it (club.play.services.locks), so a first hand
    saved meanwhile is seen here and the change refused, never made after it."""
    season: Season = form.instance
    with transaction.atomic():
        if season.pk is not None and "rule_set" in form.changed_data:
            lock_season(season.pk)
            if ScoreLine.objects.filter(season_id=season.pk).exists():
                raise SetupError(
                    "This season has scored hands now, so its rule set can no longer change."
                )
        return form.save()


def change_ladder(form: forms.ModelForm[Season], user: User) -> int:
    """Save a season form whose ladder rule set changed, score the season's hands again under it
    and record who did it; returns how many score lines changed."""
    from club.play.services.ladder import rescore_ladder

    season: Season = form.instance
    with transaction.atomic():
        # Hands being saved lock the season's row too: they finish before the rescore starts, and
        # those that start after it read the new ladder (services.hands.record_hand).
        before = lock_season(season.pk)
        # The new ladder rule set as it is now, locked: an edit of it waits until the rescore is
        # done (and is then refused, as the rule set has scored points).
        ladder_id = season.standings_rule_set_id
        if ladder_id is not None:
            season.standings_rule_set = lock_rule_sets([ladder_id])[ladder_id]
        saved = form.save()
        changed = rescore_ladder(saved)
        AuditEvent.objects.create(
            club_id=saved.club_id,
            user=user,
            action=AuditEvent.Action.UPDATE,
            subject=f"{saved.name}: ladder rule set",
            before={"standings_rule_set": _rule_set_name(before.standings_rule_set)},
            after={
                "standings_rule_set": _rule_set_name(saved.standings_rule_set),
                "score_lines_rescored": changed,
            },
        )
    return changed


def _rule_set_name(rule_set: RuleSet | None) -> str:
    return rule_set.name if rule_set else "(the season's own rule set)"
