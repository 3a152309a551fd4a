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
go on showing the club's own grade. The result is kept in Django's cache under a key made of the
person, the clubs, each club's grade state (the last rated hand's key and lines, which every
re-rating writes again: club/players/queries/home.py) and who claimed which record, so a page
view rates nothing when nothing changed, and the first view after a club's grades caught up
with a change rates once. Rating costs about 60 µs a hand (a club of 250,000 hands, 15 s).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from dataclasses import dataclass, replace

from django.core.cache import cache
from django.utils import timezone

from club.players.queries import home as q
from scoring import grade as core

CACHE_SECONDS = 30 * 24 * 3600  # the key changes with the grades: old entries just expire
CACHE_VERSION = 1  # bump when the run's arithmetic or this payload changes


@dataclass(frozen=True)
class HomeGrade:
    """The person's grade across their clubs, as the home page shows it."""

    grade: core.Grade | None  # None: no rated hand of theirs yet
    hands: int  # their rated hands in the run, all clubs
    hands_by_club: dict[int, int]  # ... of which in each club (club id)
    as_of: dt.date | None  # the date of the last hand the run counts (any club's)
    worked_out: dt.datetime  # when the run was made (the cache's entry)


def me(user_id: int) -> str:
    return f"u{user_id}"


def identities(claims: list[tuple[int, int]]) -> dict[str, str]:
    """Each claimed record's identity in the run (player id as text -> "u<user id>"), for the
    accounts that claimed records in two or more of the clubs; the rest stay their player."""
    records = Counter(user_id for _, user_id in claims)
    return {str(pid): me(user_id) for pid, user_id in claims if records[user_id] > 1}


def cache_key(user_id: int, club_ids: list[int], claims: list[tuple[int, int]]) -> str:
    states = q.grade_states(club_ids)
    parts = [f"{c}:{states[c].last_key}:{states[c].last_line}" for c in sorted(states)]
    parts.append(",".join(f"{pid}={uid}" for pid, uid in claims))
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
    return f"players:home-grade:v{CACHE_VERSION}:{user_id}:{digest}"


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
    """The person's grade across these clubs: from the cache when no club's grades and no claim
    changed since it was worked out, else rated now and kept."""
    club_ids = sorted(set(club_ids))
    claims = q.claimed_in(club_ids)
    key = cache_key(user_id, club_ids, claims)
    found = cache.get(key)
    if isinstance(found, HomeGrade):
        return found
    result = run(user_id, club_ids, claims)
    cache.set(key, result, CACHE_SECONDS)
    return result
