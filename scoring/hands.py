"""Scoring one hand: the contract's result and each player's amount under a rule set."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.contracts import ALL_PASSED, TRICKS_IN_HAND, Contract
from scoring.rules import AllPassed, Payment, RuleSet


class InvalidHand(ValueError):
    """A hand that cannot happen; the message is written for a club secretary."""


@dataclass(frozen=True)
class Hand:
    players: Sequence[str]  # the players taking part, in seat order (3 or 4)
    contract: Contract | str | None  # None or "all_passed": everybody passed
    declarer: str | None = None
    partner: str | None = None  # the accepting player, for prop_cop only
    tricks: int | None = None  # won by the declaring side, after play, before penalties
    revoke_by: str | None = None
    last_trick_by: str | None = None  # general misère: who took the thirteenth trick


@dataclass(frozen=True)
class Result:
    contract: Contract | None  # None when all passed
    made: bool
    over_tricks: int
    under_tricks: int
    amounts: dict[str, int]
    tricks_counted: int | None = None  # the declaring side's tricks after any revoke penalty
    stake: int = 0  # what one payment is worth on this hand
    revoke: bool = False
    all_passed: AllPassed | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def summary(self) -> str:
        """How the sheet writes the result: "Made, 2 over", "Failed, 1 under", "Redeal"."""
        if self.contract is None:
            return {
                AllPassed.REDEAL: "All passed: redeal",
                AllPassed.GOULASH: "All passed: goulash",
                AllPassed.GENERAL_MISERE: "General misère",
            }[self.all_passed or AllPassed.REDEAL]
        if self.made:
            text = "Made"
            if self.over_tricks:
                text += f", {self.over_tricks} over"
        else:
            text = "Failed"
            if self.under_tricks:
                text += f", {self.under_tricks} under"
        if self.revoke:
            text += " (revoke)"
        return text


def _is_all_passed(contract: Contract | str | None) -> bool:
    return contract is None or contract == ALL_PASSED


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str):
        raise InvalidHand("List the players taking part in the hand, not a single name")
    seated = tuple(players)
    if len(seated) not in (3, 4):
        raise InvalidHand(
            f"A hand is played by 3 or 4 players, not {len(seated)} "
            "(at a table of 5, leave out the player sitting out)"
        )
    if any(not isinstance(p, str) or not p.strip() for p in seated):
        raise InvalidHand("Every player taking part needs a name")
    if len(set(seated)) != len(seated):
        raise InvalidHand("A player cannot sit twice at the same table")
    return seated


def _check_at_table(players: tuple[str, ...], who: str | None, role: str) -> None:
    if who is not None and who not in players:
        raise InvalidHand(f"The {role} {who!r} is not playing at this table")


def validate(hand: Hand, rules: RuleSet) -> Contract | None:
    """Check that the hand can happen; returns its contract (None when all passed)."""
    players = _check_players(hand.players)
    _check_at_table(players, hand.revoke_by, "player who revoked")
    if _is_all_passed(hand.contract):
        if hand.declarer is not None or hand.partner is not None:
            raise InvalidHand("When all pass there is no declarer or partner")
        if hand.revoke_by is not None:
            raise InvalidHand("A revoke can only be scored against a contract")
        if hand.tricks is not None:
            raise InvalidHand("When all pass nobody plays for tricks: leave the tricks empty")
        if rules.all_passed is AllPassed.GENERAL_MISERE:
            if hand.last_trick_by is None:
                raise InvalidHand("A general misère needs the player who took the last trick")
            _check_at_table(players, hand.last_trick_by, "player who took the last trick")
        elif hand.last_trick_by is not None:
            raise InvalidHand(
                f"These rules play a {rules.all_passed.value} when all pass, so nobody pays "
                "for the last trick"
            )
        return None
    try:
        contract = Contract.parse(hand.contract)  # type: ignore[arg-type]
    except ValueError:
        raise InvalidHand(f"{hand.contract!r} is not a Solo Whist contract") from None
    if hand.last_trick_by is not None:
        raise InvalidHand("Only a general misère records who took the last trick")
    if hand.declarer is None:
        raise InvalidHand(f"{contract.display_name} needs a declarer")
    _check_at_table(players, hand.declarer, "declarer")
    if contract is Contract.PROP_COP:
        if len(players) == 3:
            raise InvalidHand(
                "Prop & Cop is not played at a table of three: the lowest call is a solo"
            )
        if hand.partner is None:
            raise InvalidHand("Prop & Cop needs a partner (the player who accepted)")
        _check_at_table(players, hand.partner, "partner")
        if hand.partner == hand.declarer:
            raise InvalidHand("The partner must be a different player from the proposer")
    elif hand.partner is not None:
        raise InvalidHand(f"Only Prop & Cop has a partner; {contract.display_name} is played alone")
    if isinstance(hand.tricks, bool) or not isinstance(hand.tricks, int):
        raise InvalidHand("Enter the number of tricks the declaring side won")
    if not 0 <= hand.tricks <= TRICKS_IN_HAND:
        raise InvalidHand("Tricks must be between 0 and 13")
    return contract


def score_hand(hand: Hand, rules: RuleSet) -> Result:
    """The result of a hand and what each player wins (+) or pays (-), in the rule set's unit."""
    contract = validate(hand, rules)
    players = tuple(hand.players)
    if contract is None:
        return _score_all_passed(hand, players, rules)

    info = contract.info
    declaring = (hand.declarer, hand.partner) if info.partnership else (hand.declarer,)
    defenders = tuple(p for p in players if p not in declaring)
    tricks: int = hand.tricks  # type: ignore[assignment]
    notes: list[str] = []

    # Digest of the Laws (Hoyle): "No revoking player or partnership can win a declaration"; "the
    # loss of three tricks from the score of the revoking side"; against a misère a revoke wins it
    # at once. The side that did not revoke therefore gets the result in its favour, and the
    # tricks moved decide only the over- or under-tricks.
    counted = tricks
    if hand.revoke_by is None:
        made = tricks == 0 if info.is_misere else tricks >= info.target
    elif hand.revoke_by in declaring:
        made = False
        counted = max(0, tricks - rules.revoke_tricks)
        notes.append(f"{hand.revoke_by} revoked: {tricks - counted} tricks to the defenders")
    else:
        made = True
        counted = min(TRICKS_IN_HAND, tricks + rules.revoke_tricks)
        notes.append(f"{hand.revoke_by} revoked: {counted - tricks} tricks to the declaring side")

    over = under = 0
    if info.counts_extra_tricks:
        if made:
            over = max(0, counted - info.target)
        else:
            under = max(0, info.target - counted)

    stake = rules.stake(contract)
    if made:
        over_value = stake.over
        if contract is Contract.PROP_COP and rules.prop_cop_slam_double and counted == 13:
            over_value *= 2  # Hoyle: a Prop & Cop slam is paid "double for the over-tricks"
        value = stake.base + over * over_value
    else:
        value = stake.base + under * stake.under

    amounts = dict.fromkeys(players, 0)
    if rules.payment is Payment.WINNER_ONLY:
        if made:
            for p in declaring:
                amounts[p] = value
    else:
        sign = 1 if made else -1
        # Prop & Cop: each partner receives from (or pays) one opponent. Otherwise the declarer
        # receives from (or pays) every opponent.
        per_declarer = value if info.partnership else value * len(defenders)
        for p in declaring:
            amounts[p] += sign * per_declarer  # type: ignore[index]
        if hand.revoke_by in defenders:
            # "The actual offender pays the stakes in all cases of a revoke": for the whole side.
            amounts[hand.revoke_by] -= value * len(defenders)
        else:
            for p in defenders:
                amounts[p] -= sign * value

    return Result(
        contract=contract,
        made=made,
        over_tricks=over,
        under_tricks=under,
        amounts=amounts,
        tricks_counted=counted,
        stake=value,
        revoke=hand.revoke_by is not None,
        notes=tuple(notes),
    )


def _score_all_passed(hand: Hand, players: tuple[str, ...], rules: RuleSet) -> Result:
    amounts = dict.fromkeys(players, 0)
    stake = 0
    if rules.all_passed is AllPassed.GENERAL_MISERE:
        # Hoyle: "the player who takes the last or thirteenth trick pays an agreed stake ... to
        # each of his adversaries". Under winner-only points each adversary scores it instead.
        stake = rules.general_misere_stake
        loser = hand.last_trick_by
        for p in players:
            if p != loser:
                amounts[p] = stake
        if rules.payment is Payment.PER_OPPONENT:
            amounts[loser] = -stake * (len(players) - 1)  # type: ignore[index]
    return Result(
        contract=None,
        made=False,
        over_tricks=0,
        under_tricks=0,
        amounts=amounts,
        stake=stake,
        all_passed=rules.all_passed,
    )
