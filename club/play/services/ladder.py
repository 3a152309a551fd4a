"""The season ladder's points: each hand scored again under the season's ladder rule set
(Season.standings_rule_set), while the night itself settles under the season's stakes.

score_lines_for stores them on each score line as the hand is written. When a secretary gives a
season with scored hands another ladder rule set, `rescore_ladder` scores its hands again: an
explicit action, as re-scoring is (DESIGN.md section 4). The database's triggers carry the new
points into the night totals.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.db.models import F

import scoring
from club.clubs.models import Season
from club.play.models import Hand, ScoreLine

BATCH = 2000


def ladder_amounts(rules: scoring.RuleSet, hand: scoring.Hand) -> dict[str, int]:
    """What each player (by key) scores on the hand under the ladder's rules. The turned suit is
    left out: it checks what was called, which the night's own rules did already."""
    try:
        return scoring.score_hand(replace(hand, turned_suit=None), rules).amounts
    except scoring.InvalidHand:
        # Only an all-passed hand can be valid under one rule set and not another (a general
        # misère needs whoever took the last trick): under the ladder's rules nobody scores.
        return {}


def _key(pk: int | None) -> str | None:
    return None if pk is None else str(pk)


def rescore_ladder(season: Season) -> int:
    """Store every score line's points again under the season's ladder rule set (its own
    amounts when it has none); returns how many lines changed."""
    ladder = season.standings_rule_set
    changed = 0
    with transaction.atomic():
        if ladder is None:
            stale = ScoreLine.objects.filter(season=season).exclude(points=F("amount"))
            return stale.update(points=F("amount"))
        rules = ladder.rules
        hands = (
            Hand.objects.filter(score_lines__season=season)
            .distinct()
            .order_by("pk")
            .prefetch_related("score_lines", "revokes")
        )
        pending: list[ScoreLine] = []
        for hand in hands.iterator(chunk_size=BATCH):
            lines = list(hand.score_lines.all())
            core = scoring.Hand(
                players=tuple(str(line.player_id) for line in lines),
                contract=hand.contract,
                declarer=_key(hand.declarer_id),
                partner=_key(hand.partner_id),
                tricks=hand.tricks,
                last_trick_by=_key(hand.last_trick_by_id),
                revokes=tuple(str(r.player_id) for r in hand.revokes.all()),
                penalty=hand.penalty or None,
                penalty_by=_key(hand.penalty_by_id),
            )
            amounts = ladder_amounts(rules, core)
            for line in lines:
                points = amounts.get(str(line.player_id), 0)
                if line.points != points:
                    line.points = points
                    pending.append(line)
            if len(pending) >= BATCH:
                changed += _save(pending)
        changed += _save(pending)
    return changed


def _save(lines: list[ScoreLine]) -> int:
    count = len(lines)
    if lines:
        ScoreLine.objects.bulk_update(lines, ["points"], batch_size=BATCH)
        lines.clear()
    return count
