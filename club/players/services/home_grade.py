"""One grade for a person across the clubs whose player records they claimed: the grade's own
engine (scoring/grade.py) run once over the rated hands of all those clubs, in date order
across them, with the person's records in every club as one player.

Who is who in the run:

- the person's own records, one per club, are one identity;
- anyone else who claimed records in two or more of these clubs (the same account) is one
  identity too: the same opponent met in two clubs is rated once, from both clubs' hands;
- everyone else is their club's player (a player id names one club's player).

Which hands: every rated hand of each linked club, whatever that club's grade setting. It is the
person's own grade, shown to no one else: a club that turned its grades off has stopped showing
grades on its pages (which stay as they were), not stopped its members' hands being played. The
opponents' ratings in this run are never shown.

Nothing is written to the clubs' grade tables (GradeLine, GradeNight, Grade): each club's pages
go on showing the club's own grade.

Cost: rating is the grade engine's (a club of 250,000 hands takes about 15 s; two clubs of 3,000
hands, 1.5 to 2 s on a loaded test machine), so the result is kept in Django's cache, one entry
per person and set of clubs, with the state it was worked out from: each club's grade state (its
last rated hand's key and lines, which every re-rating writes again:
club/players/queries/home.py) and who claimed which record. A page view whose state matches
rates nothing. When a club's grades have moved on (every hand saved on a club night does that),
the page shows the last result, marked as being updated, and one background task (`work_out`,
once per state) rates again; only a person's very first view, with nothing to show, rates in
the request. The task's arguments name the person and the clubs' ids, nothing else; a club
purged meanwhile simply has no hands left to read.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections import Counter
from dataclasses import dataclass, replace

from django.core.cache import cache
from django.utils import timezone
from django_tasks import task

from club.players.queries import home as q
from scoring import grade as core

log = logging.getLogger(__name__)

CACHE_SECONDS = 30 * 24 * 3600  # a person not seen for a month starts afresh
CACHE_VERSION = 1  # bump when the run's arithmetic or this payload changes
UPDATE_SECONDS = 15 * 60  # one background run per state; tried again after this


@dataclass(frozen=True)
class HomeGrade:
    """The person's grade across their clubs, as the home page shows it."""

    grade: core.Grade | None  # None: no rated hand of theirs yet
    hands: int  # their rated hands in the run, all clubs
    hands_by_club: dict[int, int]  # ... of which in each club (club id)
    as_of: dt.date | None  # the date of the last hand the run counts (any club's)
    worked_out: dt.datetime  # when the run was made (the cache's entry)
    updating: bool = False  # a club's grades have moved on: a newer run is on its way


def me(user_id: int) -> str:
    return f"u{user_id}"


def identities(claims: list[tuple[int, int]]) -> dict[str, str]:
    """Each claimed record's identity in the run (player id as text -> "u<user id>"), for the
    accounts that claimed records in two or more of the clubs; the rest stay their player."""
    records = Counter(user_id for _, user_id in claims)
    return {str(pid): me(user_id) for pid, user_id in claims if records[user_id] > 1}


def state(club_ids: list[int], claims: list[tuple[int, int]]) -> str:
    """What the run depends on, as a digest: each club's grade state and the claims."""
    states = q.grade_states(club_ids)
    parts = [f"{c}:{states[c].last_key}:{states[c].last_line}" for c in sorted(states)]
    parts.append(",".join(f"{pid}={uid}" for pid, uid in claims))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def cache_key(user_id: int, club_ids: list[int]) -> str:
    clubs = ",".join(str(c) for c in club_ids)
    return f"players:home-grade:v{CACHE_VERSION}:{user_id}:{clubs}"


def run(user_id: int, club_ids: list[int], claims: list[tuple[int, int]]) -> HomeGrade:
    """Rate every rated hand of the clubs once, in date order across them (no cache)."""
    names = identities(claims)
    own = {str(pid) for pid, uid in claims if uid == user_id}
    person = me(user_id)
    names.update(dict.fromkeys(own, person))
    # The clubs' own keys (date, night id, round, hand id) sort across clubs too: by date first;
    # hands of two clubs on one date share no one but a person in both, who was at one of them.
    hands = q.rated_hands(club_ids)
    ratings: dict[str, core.Rating] = {}
    by_club: Counter[int] = Counter()
    for club_id, found in hands:
        hand = _renamed(found, names)
        ratings.update(core.rate_hand(ratings, hand))
        if person in hand.side or person in hand.rest:
            by_club[club_id] += 1
    rating = ratings.get(person)
    return HomeGrade(
        grade=None if rating is None else core.shown(rating),
        hands=0 if rating is None else rating.hands,
        hands_by_club=dict(by_club),
        as_of=dt.date.fromordinal(hands[-1][1].day) if hands else None,
        worked_out=timezone.now(),
    )


def _renamed(hand: core.GradeHand, names: dict[str, str]) -> core.GradeHand:
    if not any(p in names for p in hand.players):
        return hand
    return replace(
        hand,
        side=tuple(names.get(p, p) for p in hand.side),
        rest=tuple(names.get(p, p) for p in hand.rest),
    )


def home_grade(user_id: int, club_ids: list[int]) -> HomeGrade:
    """The person's grade across these clubs: the kept one when nothing changed since it was
    worked out; else the kept one marked `updating`, a background run queued; rated now only
    when nothing is kept yet."""
    club_ids = sorted(set(club_ids))
    claims = q.claimed_in(club_ids)
    now = state(club_ids, claims)
    key = cache_key(user_id, club_ids)
    kept = _kept(key)
    if kept is not None and kept[0] == now:
        return kept[1]
    if kept is None:
        return _work_out(user_id, club_ids, claims, now)
    if cache.add(f"{key}:updating:{now}", True, UPDATE_SECONDS):
        try:
            work_out.enqueue(user_id, club_ids)
        except Exception:  # the page still shows the kept grade; the next view tries again
            log.exception("Could not queue the home grade of user %s", user_id)
            cache.delete(f"{key}:updating:{now}")
        done = _kept(key)  # where tasks run at once (tests, the demo), already done
        if done is not None and done[0] == now:
            return done[1]
    return replace(kept[1], updating=True)


def _kept(key: str) -> tuple[str, HomeGrade] | None:
    """(the state it was worked out from, the result), if the cache has it."""
    kept = cache.get(key)
    if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], HomeGrade):
        return str(kept[0]), kept[1]
    return None


def _work_out(
    user_id: int, club_ids: list[int], claims: list[tuple[int, int]], now: str
) -> HomeGrade:
    result = run(user_id, club_ids, claims)
    cache.set(cache_key(user_id, club_ids), (now, result), CACHE_SECONDS)
    return result


@task()
def work_out(user_id: int, club_ids: list[int]) -> int:
    """Rate the person's clubs again and keep the result (queued by a page view that found the
    kept one out of date); returns their rated hands. The state is read before the hands, so
    a change meanwhile leaves the kept result marked older than it is: rated once more, never
    shown as newer than it is."""
    claims = q.claimed_in(club_ids)
    return _work_out(user_id, club_ids, claims, state(club_ids, claims)).hands
