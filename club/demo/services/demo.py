"""Demo data: a club, its players and a season of realistic club nights, for trying the app and
for benchmarks (`seed_demo --hands N`). Hands are random but plausible: the contracts a school
sees, tricks near the target, the odd revoke, and every amount scored by the scoring core."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

import scoring
from club.clubs.models import Club, Membership, Player, Role, Season
from club.clubs.services.setup import rule_set_from_preset
from club.lib.names import name_key
from club.play.models import Hand, Night, Revoke, ScoreLine, Seat, Table
from club.play.services.hand_entry import HandEntry, score_entry
from club.play.services.hands import apply_result, revoke_rows, score_lines_for

PLAYER_NAMES = [
    "Ann Baxter", "Bob Mortimer", "Cathy O'Neill", "Dan Whitaker", "Eve Lambert", "Fay Okafor",
    "Gus Petrov", "Hal Jenkins", "Ivy Chen", "Jack Doyle", "Kath Murray", "Len Hughes",
    "Maud Pearson", "Ned Farrell", "Olive Shah", "Pat Kowalski", "Renée Dubois", "Sid Harper",
    "Tess Morgan", "Zoë Abbott", "Vic Rowe", "Wyn Evans", "Yusuf Ali", "Bea Collins",
]  # fmt: skip

# How often each call is the final contract at a typical school (all passed about one hand in 12).
CONTRACT_WEIGHTS = [
    ("prop_cop", 34), ("solo", 30), ("misere", 10), ("abundance", 7), ("royal_abundance", 3),
    ("open_misere", 3), ("abundance_declared", 1), (scoring.ALL_PASSED, 9),
]  # fmt: skip

DEMO_PASSWORD = "solo-demo"


@dataclass(frozen=True)
class DemoSummary:
    club: Club
    nights: int
    hands: int
    score_lines: int


def _tricks(rng: random.Random, contract: scoring.Contract) -> int:
    target = contract.target
    if target == 0:  # misères: mostly made
        return 0 if rng.random() < 0.7 else rng.choice([1, 1, 1, 2, 3])
    if target == 13:
        return 13 if rng.random() < 0.75 else rng.choice([11, 12])
    return max(0, min(13, target + round(rng.gauss(0.6, 1.6))))


def random_entry(
    rng: random.Random, dealer: Player, playing: list[Player], rules: scoring.RuleSet
) -> HandEntry:
    legal = {c.value for c in scoring.table.legal_contracts(len(playing))} | {scoring.ALL_PASSED}
    choices = [(c, w) for c, w in CONTRACT_WEIGHTS if c in legal]
    contract = rng.choices([c for c, _ in choices], [w for _, w in choices])[0]
    if contract == scoring.ALL_PASSED:
        general = rules.all_passed is scoring.AllPassed.GENERAL_MISERE
        return HandEntry(
            dealer=dealer, contract=contract, last_trick_by=rng.choice(playing) if general else None
        )
    declarer, partner = rng.sample(playing, 2)
    kind = scoring.Contract(contract)
    trump = ""
    if kind is scoring.Contract.ABUNDANCE:
        trump = rng.choice(scoring.contracts.SUITS).value
    revoke = rng.choice(playing) if rng.random() < 0.01 else None
    return HandEntry(
        dealer=dealer,
        contract=contract,
        declarer=declarer,
        partner=partner if kind is scoring.Contract.PROP_COP else None,
        tricks=_tricks(rng, kind),
        revoke_by=revoke,
        trump=trump,
    )


def _tables_for_night(rng: random.Random, regulars: list[Player]) -> list[list[Player]]:
    """Most of the regulars turn up; they sit at tables of 4, with a fifth at some tables."""
    present = [p for p in regulars if rng.random() < 0.85]
    while len(present) < 4:
        present.append(next(p for p in regulars if p not in present))
    rng.shuffle(present)
    # One extra player per table at most (tables of 5); anyone beyond that watches tonight.
    while len(present) % 4 > len(present) // 4:
        present.pop()
    tables = [present[i * 4 : i * 4 + 4] for i in range(len(present) // 4)]
    for i, extra in enumerate(present[len(tables) * 4 :]):
        tables[i].append(extra)
    return tables


def seed(
    *,
    slug: str = "demo",
    name: str = "Crown & Anchor Solo School",
    hands: int = 600,
    preset: str = "hoyle",
    players: int = 16,
    hands_per_table: int = 16,
    seed: int = 0,
    today: dt.date | None = None,
    with_users: bool = True,
) -> DemoSummary:
    """Create the club and about `hands` hands over weekly nights ending the day before `today`
    (nothing on today's date, where tonight's night will go), in a season that runs on for
    another quarter. The latest night is left open, the others closed."""
    rng = random.Random(seed)
    # The demo club keeps the field's default zone (Europe/London): its date, not the server's.
    today = today or Club().today()
    last = today - dt.timedelta(days=1)
    with transaction.atomic():
        # The club counts in the preset's money: dollars for the cents preset, else pounds.
        symbol = "$" if scoring.preset(preset).unit == "cents" else "£"
        club = Club.objects.create(name=name, slug=slug, is_public=True, currency_symbol=symbol)
        if with_users:
            _demo_users(club)
        names = [PLAYER_NAMES[i % len(PLAYER_NAMES)] for i in range(players)]
        names = [n if i < len(PLAYER_NAMES) else f"{n} {i // len(PLAYER_NAMES) + 1}"
                 for i, n in enumerate(names)]  # fmt: skip
        roster = Player.objects.bulk_create(
            Player(club=club, name=n, name_key=name_key(n)) for n in names
        )
        rule_set = rule_set_from_preset(club, preset)
        # Offered in set-up for trying a points ladder on the same hands.
        rule_set_from_preset(club, "anna-cubed", "Anna Cubed points (ladder)")
        rules = rule_set.rules
        # Who sits where each week, planned from the latest night back, so that every night
        # but the earliest is whole (the earliest takes what is left of the hands).
        plans: list[tuple[dt.date, list[list[Player]], int]] = []
        remaining = hands
        while remaining > 0:
            seating = _tables_for_night(rng, roster)
            count = min(remaining, len(seating) * hands_per_table)
            plans.append((last - dt.timedelta(weeks=len(plans)), seating, count))
            remaining -= count
        plans.reverse()
        first, end = plans[0][0], today + dt.timedelta(weeks=13)
        season = Season.objects.create(
            club=club,
            name=f"Season {first.year}" + (f"-{end.year}" if end.year != first.year else ""),
            start=first,
            end=end,
            rule_set=rule_set,
        )
        written = lines = 0
        for date, seating, count in plans:
            n_hands, n_lines = _seed_night(
                rng, season, date, seating, rules, hands_per_table, count
            )
            written += n_hands
            lines += n_lines
        # Every night but the latest is over and settled.
        Night.objects.filter(season=season).exclude(date=last).update(status=Night.Status.CLOSED)
        night_count = len(plans)
    return DemoSummary(club, night_count, written, lines)


def _seed_night(
    rng: random.Random,
    season: Season,
    date: dt.date,
    seating: list[list[Player]],
    rules: scoring.RuleSet,
    hands_per_table: int,
    budget: int,
) -> tuple[int, int]:
    night = Night.objects.create(season=season, date=date)
    hands: list[Hand] = []
    lines: list[ScoreLine] = []
    for number, seated in enumerate(seating, start=1):
        if len(hands) >= budget:
            break  # the earliest night: only the tables that had hands
        table = Table.objects.create(night=night, number=number, first_dealer=0)
        table.night = night
        Seat.objects.bulk_create(
            Seat(table=table, position=i, player=p) for i, p in enumerate(seated)
        )
        for hand in _play_table(rng, table, seated, rules, season, hands_per_table):
            if len(hands) >= budget:
                break
            hands.append(hand)
    Hand.objects.bulk_create(hands, batch_size=2000)
    revokes = []
    for hand in hands:
        # Each unsaved hand carries its scoring until its lines are written.
        lines.extend(score_lines_for(hand, hand._scored))  # type: ignore[attr-defined]
        revokes.extend(revoke_rows(hand, hand._scored.entry))  # type: ignore[attr-defined]
    ScoreLine.objects.bulk_create(lines, batch_size=5000)
    Revoke.objects.bulk_create(revokes, batch_size=5000)
    return len(hands), len(lines)


def _play_table(
    rng: random.Random,
    table: Table,
    seated: list[Player],
    rules: scoring.RuleSet,
    season: Season,
    count: int,
) -> Iterator[Hand]:
    keys = [str(p.pk) for p in seated]
    for number in range(1, count + 1):
        dealer = seated[(table.first_dealer + number - 1) % len(seated)]
        out = scoring.table.sitting_out(keys, str(dealer.pk), rules)
        playing = [p for p in seated if str(p.pk) != out]
        entry = random_entry(rng, dealer, playing, rules)
        rotation = scoring.table.trump_for(rules, number)
        if rotation and not entry.trump:
            entry = HandEntry(**{**entry.__dict__, "trump": rotation.value})
        scored = score_entry(table, entry, rules, seats=seated)
        hand = Hand(table=table, number=number, rule_set=season.rule_set)
        apply_result(hand, scored)
        # Each unsaved hand carries its scoring until its lines are written.
        hand._scored = scored  # type: ignore[attr-defined]
        yield hand


def _demo_users(club: Club) -> None:
    User = get_user_model()
    for username, role in (
        ("secretary", Role.SECRETARY),
        ("scorer", Role.SCORER),
        ("viewer", Role.VIEWER),
    ):
        # Each login has an address (example.org goes nowhere): a restored member sets their
        # password through it, so the demo's backup restores its members too.
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.org"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        Membership.objects.get_or_create(user=user, club=club, defaults={"role": role})
