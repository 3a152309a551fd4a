"""What a person's home across clubs reads (club/players/views/home.py): the player records their
account has claimed, their recent nights in each club, and what the grade across those clubs
depends on (club/players/services/home_grade.py). A fixed number of queries, however many clubs.

What is shown is the signed-in person's own records only. The rest is read for the grade across
clubs and never shown: the clubs' rated hands, each club's grade state and the other claimed
records of the same clubs (which key the grade's cache and name its identities)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import F, OuterRef, Subquery, Window
from django.db.models.functions import RowNumber
from django.shortcuts import get_object_or_404

from club.clubs.models import Club, Player
from club.grades.models import GradeLine
from club.grades.services.grades import sort_key
from club.play.models import Hand, NightTotal, ScoreLine
from scoring import grade as core

RECENT_NIGHTS = 5  # each club's latest nights on the home page


def claimed_records(user: User) -> list[Player]:
    """The person's player records, one per club whose record they claimed (open clubs only: a
    closed club waiting to be deleted shows none of its pages), by club name."""
    return list(
        Player.objects.filter(user=user, club__closed_at=None)
        .select_related("club")
        .order_by("club__name", "club_id")
    )


def own_record(user: User, slug: str) -> Player:
    """The person's own record in the club with this slug: a 404 for a club where they have
    none, whether or not the club exists (another person's record is never theirs to unlink)."""
    return get_object_or_404(
        Player.objects.select_related("club"), user=user, club__slug=slug, club__closed_at=None
    )


def recent_nights(
    records: list[Player], per_club: int = RECENT_NIGHTS
) -> dict[int, list[NightTotal]]:
    """Each record's latest nights (newest first), by player id: one query for every club."""
    if not records:
        return {}
    ranked = (
        NightTotal.objects.filter(player__in=records)
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("player_id")],
                order_by=[F("night__date").desc(), F("night_id").desc()],
            )
        )
        .filter(rank__lte=per_club)
        .select_related("night")
        .order_by("player_id", "rank")
    )
    found: dict[int, list[NightTotal]] = defaultdict(list)
    for total in ranked:
        found[total.player_id].append(total)
    return found


@dataclass(frozen=True)
class GradeState:
    """What a club's grades are now: the sort key of its last rated hand and the newest id
    among that hand's lines. Every re-rating of the club writes that hand's lines again (a
    catch-up rates from the changed hand to the last), so any change of its rated hands changes
    this pair; a club with no rated hand is ("", 0)."""

    last_key: str
    last_line: int


def grade_states(club_ids: list[int]) -> dict[int, GradeState]:
    """Each club's grade state, in one query (two index lookups a club: the club's lines by
    sort key)."""
    if not club_ids:
        return {}
    last = GradeLine.objects.filter(club_id=OuterRef("pk")).order_by("-sort_key", "-pk")
    rows = (
        Club.objects.filter(pk__in=club_ids)
        .annotate(
            last_key=Subquery(last.values("sort_key")[:1]),
            last_line=Subquery(last.values("pk")[:1]),
        )
        .values_list("pk", "last_key", "last_line")
    )
    return {pk: GradeState(key or "", line or 0) for pk, key, line in rows}


def claimed_in(club_ids: list[int]) -> list[tuple[int, int]]:
    """(player id, user id) of every claimed record in these clubs: a person who claimed records
    in two of them is one opponent in the grade across clubs, not two."""
    if not club_ids:
        return []
    return list(
        Player.objects.filter(club_id__in=club_ids, user__isnull=False)
        .order_by("pk")
        .values_list("pk", "user_id")
    )


def rated_hands(club_ids: list[int]) -> list[tuple[int, core.GradeHand]]:
    """(club id, hand) for every rated hand of these clubs, in the grades' order (night date,
    night id, round, hand id: by date across clubs), its players named by their ids as text: the
    hands a rebuild of each club rates (club/grades/services/grades.py reads them the same way),
    read in two queries for all the clubs."""
    if not club_ids:
        return []
    rows = Hand.objects.filter(table__night__season__club_id__in=club_ids).values_list(
        "pk",
        "table__night__season__club_id",
        "table__night_id",
        "table__night__date",
        "table__round_number",
        "contract",
        "declarer_id",
        "partner_id",
        "made",
        "last_trick_by_id",
    )
    players: dict[int, list[str]] = defaultdict(list)
    lines = ScoreLine.objects.filter(season__club_id__in=club_ids).order_by("hand_id", "pk")
    for hand_id, player_id in lines.values_list("hand_id", "player_id"):
        players[hand_id].append(str(player_id))

    def key_of(pk: int | None) -> str | None:
        return None if pk is None else str(pk)

    found = []
    for pk, club_id, night_id, date, round_number, contract, declarer, partner, made, last in rows:
        rated = core.grade_hand(
            sort_key(date, night_id, round_number, pk),
            date.toordinal(),
            players[pk],
            contract,
            key_of(declarer),
            key_of(partner),
            made,
            key_of(last),
        )
        if rated is not None:
            found.append((club_id, rated))
    found.sort(key=lambda pair: pair[1].order)
    return found
