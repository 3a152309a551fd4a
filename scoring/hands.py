"""Scoring one hand: the contract's result and each player's amount under a rule set."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from scoring.contracts import ALL_PASSED, MISDEAL, SUITS, TRICKS_IN_HAND, Contract, Trump
from scoring.rules import AllPassed, Payment, RuleSet


class InvalidHand(ValueError):
    """A hand that cannot happen; the message is written for a club secretary."""


class Penalty(StrEnum):
    """What lets a misère caller "immediately claim the stakes" other than a revoke (Hoyle: "If a
    card is exposed by one of the adversaries of a misère or misère ouverte ... The misère-caller
    can enforce the same penalty if a card is led out of turn against him ... or, indeed, if any
    one follows suit out of turn")."""

    EXPOSED_CARD = "exposed_card"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    PLAYED_OUT_OF_TURN = "played_out_of_turn"

    @property
    def display_name(self) -> str:
        return {
            Penalty.EXPOSED_CARD: "exposed a card",
            Penalty.LEAD_OUT_OF_TURN: "led out of turn",
            Penalty.PLAYED_OUT_OF_TURN: "played out of turn",
        }[self]


class Outcome(StrEnum):
    PLAYED = "played"  # a contract was played and scored
    ALL_PASSED = "all_passed"  # nobody called: a redeal, goulash or general misère
    VOID = "void"  # revokes on both sides: "the deal is void" (Hoyle)
    MISDEAL = "misdeal"  # the cards were wrongly dealt: a fresh deal, no penalty (Hoyle)


@dataclass(frozen=True)
class Hand:
    players: Sequence[str]  # the players taking part, in seat order (3 or 4)
    contract: Contract | str | None  # None or "all_passed": everybody passed; "misdeal"
    declarer: str | None = None
    partner: str | None = None  # the accepting player, for prop_cop only
    tricks: int | None = None  # won by the declaring side, after play, before penalties
    revoke_by: str | None = None  # the player who revoked, when one revoke was made
    last_trick_by: str | None = None  # general misère: who took the thirteenth trick
    # Every revoke when there was more than one (a player twice if he revoked twice), in the
    # order they were found: Hoyle "The penalty for every revoke is the loss of three tricks".
    revokes: Sequence[str] = ()
    penalty: Penalty | str | None = None  # against a misère, other than a revoke
    penalty_by: str | None = None  # the defender who committed it
    trump: Trump | str | None = None  # the suit an abundance names
    turned_suit: Trump | str | None = None  # the suit the dealer turned up, if recorded
    # Found after the first call: who held the wrong number of cards (Hoyle's Games Modernized,
    # Solo Whist, A Digest of the Laws: "Should the cards be improperly divided ..."). Found
    # before the first call it is a fresh deal instead: the contract MISDEAL.
    wrong_cards: Sequence[str] = ()

    @property
    def all_revokes(self) -> tuple[str, ...]:
        return (self.revoke_by,) if self.revoke_by is not None else tuple(self.revokes)


@dataclass(frozen=True)
class Result:
    contract: Contract | None  # None when all passed, void or misdealt
    made: bool
    over_tricks: int
    under_tricks: int
    amounts: dict[str, int]
    tricks_counted: int | None = None  # the declaring side's tricks after any revoke penalty
    stake: int = 0  # what one payment is worth on this hand
    revoke: bool = False
    all_passed: AllPassed | None = None
    notes: tuple[str, ...] = field(default=())
    outcome: Outcome | None = None  # None: worked out from the other fields, for old callers
    penalty: Penalty | None = None
    wrong_cards: bool = False  # decided by who held the wrong number of cards, not by the play

    @property
    def kind(self) -> Outcome:
        if self.outcome is not None:
            return self.outcome
        return Outcome.ALL_PASSED if self.contract is None else Outcome.PLAYED

    @property
    def summary(self) -> str:
        """How the sheet writes the result: "Made, 2 over", "Failed, 1 under", "Redeal"."""
        kind = self.kind
        if kind is Outcome.VOID:
            return "Void: revokes on both sides"
        if kind is Outcome.MISDEAL:
            return "Cards wrongly dealt: redeal"
        if kind is Outcome.ALL_PASSED:
            return {
                AllPassed.REDEAL: "All passed: redeal",
                AllPassed.GOULASH: "All passed: goulash",
                AllPassed.GENERAL_MISERE: "General misère",
            }[self.all_passed or AllPassed.REDEAL]
        if self.wrong_cards:
            return ("Won" if self.made else "Lost") + ": cards wrongly divided"
        if self.made:
            text = "Made"
            if self.over_tricks:
                text += f", {self.over_tricks} over"
        else:
            text = "Failed"
            if self.under_tricks:
                text += f", {self.under_tricks} under"
        if self.penalty is not None:
            text += " (penalty)"
        elif self.revoke:
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


def _suit(value: Trump | str | None, what: str) -> Trump | None:
    if value is None or value == "":
        return None
    try:
        suit = Trump(value)
    except ValueError:
        raise InvalidHand(f"{value!r} is not a suit ({what})") from None
    return suit


def _check_revokes(hand: Hand, players: tuple[str, ...]) -> tuple[str, ...]:
    if hand.revoke_by is not None and tuple(hand.revokes):
        raise InvalidHand("Give the one revoke, or the list of every revoke, not both")
    if isinstance(hand.revokes, str):
        raise InvalidHand("List every revoke, one name a revoke, not a single name")
    revokes = hand.all_revokes
    for who in revokes:
        _check_at_table(players, who, "player who revoked")
    return revokes


def _check_wrong_cards(hand: Hand, players: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(hand.wrong_cards, str):
        raise InvalidHand("List who held the wrong number of cards, one name each, not one name")
    wrong = tuple(hand.wrong_cards)
    for who in wrong:
        _check_at_table(players, who, "player with the wrong number of cards")
    if len(set(wrong)) != len(wrong):
        raise InvalidHand("Name each player who held the wrong number of cards once")
    if not wrong:
        return wrong
    if hand.contract == MISDEAL or _is_all_passed(hand.contract):
        raise InvalidHand(
            "Cards wrongly divided cost money only once a contract is called: found before the "
            "first call (or when all passed) it is a fresh deal, so enter Cards wrongly dealt and "
            "leave who held the wrong number empty"
        )
    if hand.all_revokes or hand.penalty is not None or hand.penalty_by is not None:
        raise InvalidHand(
            "Cards wrongly divided decide the hand whatever happened in the play: leave the "
            "revokes and penalties empty"
        )
    return wrong


def validate(hand: Hand, rules: RuleSet) -> Contract | None:
    """Check that the hand can happen; returns its contract (None when all passed or the cards
    were wrongly dealt)."""
    players = _check_players(hand.players)
    revokes = _check_revokes(hand, players)
    wrong = _check_wrong_cards(hand, players)
    turned = _suit(hand.turned_suit, "the suit turned up")
    if turned is not None:
        if not rules.record_turned_suit:
            raise InvalidHand("These rules do not record the suit turned up: leave it empty")
        if turned not in SUITS:
            raise InvalidHand("The card turned up is of a suit: hearts, clubs, diamonds or spades")
    if hand.contract == MISDEAL or _is_all_passed(hand.contract):
        nobody = hand.declarer is None and hand.partner is None and hand.tricks is None
        if hand.contract == MISDEAL:
            if not nobody or revokes or hand.penalty or hand.last_trick_by is not None:
                raise InvalidHand(
                    "Cards wrongly dealt are dealt again: no contract, tricks, revoke or penalty"
                )
            return None
    if _is_all_passed(hand.contract):
        if hand.declarer is not None or hand.partner is not None:
            raise InvalidHand("When all pass there is no declarer or partner")
        if revokes:
            raise InvalidHand("A revoke can only be scored against a contract")
        if hand.penalty is not None or hand.penalty_by is not None:
            raise InvalidHand("A penalty can only be claimed against a misère")
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
        # A contract is given here: the all-passed and misdeal keys returned above.
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
    _check_trump(contract, _suit(hand.trump, "the trumps named"), turned, rules)
    if wrong and hand.tricks is None:
        return contract  # found during the play: the tricks do not matter
    if hand.penalty is not None or hand.penalty_by is not None:
        _check_penalty(hand, contract, players, revokes)
        if hand.tricks is None:
            return contract  # the misère caller claimed the stakes before the play ended
    if isinstance(hand.tricks, bool) or not isinstance(hand.tricks, int):
        raise InvalidHand("Enter the number of tricks the declaring side won")
    if not 0 <= hand.tricks <= TRICKS_IN_HAND:
        raise InvalidHand("Tricks must be between 0 and 13")
    return contract


def _check_trump(
    contract: Contract, trump: Trump | None, turned: Trump | None, rules: RuleSet
) -> None:
    if (
        contract is Contract.ABUNDANCE
        and trump is not None
        and trump == turned
        and not rules.abundance_in_turned_suit
    ):
        raise InvalidHand(
            f"Under these rules an abundance names a suit other than the one turned up "
            f"({turned.display_name}): nine tricks in the turned suit is a Royal Abundance, "
            "so enter it as Royal Abundance"
        )
    if contract is Contract.ROYAL_ABUNDANCE and None not in (trump, turned) and trump != turned:
        raise InvalidHand(
            "A Royal Abundance is played in the suit turned up: for another suit enter an Abundance"
        )


def _check_penalty(
    hand: Hand, contract: Contract, players: tuple[str, ...], revokes: tuple[str, ...]
) -> None:
    if hand.penalty is None or hand.penalty_by is None:
        raise InvalidHand("A penalty needs both what was done and who did it")
    try:
        Penalty(hand.penalty)
    except ValueError:
        choices = ", ".join(p.display_name for p in Penalty)
        raise InvalidHand(f"{hand.penalty!r} is not a penalty (one who {choices})") from None
    if not contract.info.is_misere:
        raise InvalidHand(
            "Only a misère caller claims the stakes for an exposed card or a card played out of "
            f"turn; against {contract.display_name} such a card is dealt with in the play"
        )
    _check_at_table(players, hand.penalty_by, "player who incurred the penalty")
    if hand.penalty_by == hand.declarer:
        raise InvalidHand(
            "The misère caller's own exposed card costs nothing (Hoyle: it is to his own "
            "disadvantage): record the penalty against the defender who committed it"
        )
    if revokes:
        raise InvalidHand(
            "A misère claimed on a penalty ends there: record the penalty or the revokes, "
            "whichever came first"
        )


def score_hand(hand: Hand, rules: RuleSet) -> Result:
    """The result of a hand and what each player wins (+) or pays (-), in the rule set's unit."""
    contract = validate(hand, rules)
    players = tuple(hand.players)
    if hand.contract == MISDEAL:
        return _nothing(players, Outcome.MISDEAL)
    if contract is None:
        return _score_all_passed(hand, players, rules)

    info = contract.info
    # validate() has made sure of a declarer, and of a partner exactly when the contract has one.
    declaring = tuple(p for p in (hand.declarer, hand.partner) if p is not None)
    defenders = tuple(p for p in players if p not in declaring)
    revokes = hand.all_revokes
    by_declaring = [p for p in revokes if p in declaring]
    by_defenders = [p for p in revokes if p in defenders]
    notes: list[str] = []

    if by_declaring and by_defenders:
        # Hoyle: "In case of a revoke on both sides, the deal is void."
        names = ", ".join(dict.fromkeys(revokes))
        return _nothing(players, Outcome.VOID, contract, notes=(f"Revokes: {names}",), revoke=True)

    if hand.penalty is not None:
        return _score_penalty(hand, contract, players, defenders, rules)
    if hand.wrong_cards:
        return _score_wrong_cards(hand, contract, players, declaring, defenders, rules)

    # Digest of the Laws (Hoyle): "No revoking player or partnership can win a declaration"; "The
    # penalty for every revoke is the loss of three tricks from the score of the revoking side";
    # against a misère a revoke wins it at once. The side that did not revoke therefore gets the
    # result in its favour, and the tricks moved decide only the over- or under-tricks.
    # validate() has made sure a played contract has its tricks.
    tricks: int = hand.tricks  # type: ignore[assignment]
    counted = tricks
    moved = rules.revoke_tricks * len(revokes)
    if not revokes:
        made = tricks == 0 if info.is_misere else tricks >= info.target
    elif by_declaring:
        made = False
        counted = max(0, tricks - moved)
        notes.append(f"{_names(by_declaring)} revoked: {tricks - counted} tricks to the defenders")
    else:
        made = True
        counted = min(TRICKS_IN_HAND, tricks + moved)
        notes.append(
            f"{_names(by_defenders)} revoked: {counted - tricks} tricks to the declaring side"
        )

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
    value *= rules.stake_unit

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
            amounts[p] += sign * per_declarer
        if by_defenders:
            # "The actual offender pays the stakes in all cases of a revoke": the defenders' side
            # owes what it would have paid, and each offender pays for his own revokes.
            for offender, share in _shares(value * len(defenders), by_defenders).items():
                amounts[offender] -= share
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
        revoke=bool(revokes),
        notes=tuple(notes),
        outcome=Outcome.PLAYED,
    )


def _names(people: Sequence[str]) -> str:
    unique = list(dict.fromkeys(people))
    return unique[0] if len(unique) == 1 else ", ".join(unique[:-1]) + " and " + unique[-1]


def _shares(total: int, revokes: Sequence[str]) -> dict[str, int]:
    """Split what a side owes among its revokes, one equal share a revoke, in exact units: the
    first revokes found pay the odd unit when it does not divide."""
    base, odd = divmod(total, len(revokes))
    shares: dict[str, int] = {}
    for i, offender in enumerate(revokes):
        shares[offender] = shares.get(offender, 0) + base + (1 if i < odd else 0)
    return shares


def _nothing(
    players: tuple[str, ...],
    outcome: Outcome,
    contract: Contract | None = None,
    notes: tuple[str, ...] = (),
    revoke: bool = False,
) -> Result:
    """A deal that does not count: nobody wins or pays anything."""
    return Result(
        contract=contract,
        made=False,
        over_tricks=0,
        under_tricks=0,
        amounts=dict.fromkeys(players, 0),
        revoke=revoke,
        notes=notes,
        outcome=outcome,
    )


def _score_penalty(
    hand: Hand,
    contract: Contract,
    players: tuple[str, ...],
    defenders: tuple[str, ...],
    rules: RuleSet,
) -> Result:
    """Hoyle: the misère caller "can immediately claim the stakes, and is regarded as having won
    the declaration, the stakes being paid by the offender for himself and his partners"."""
    # validate() has made sure of the penalty, its declarer and its offender.
    penalty = Penalty(hand.penalty)  # type: ignore[arg-type]
    value = rules.stake(contract).base * rules.stake_unit
    amounts = dict.fromkeys(players, 0)
    if rules.payment is Payment.WINNER_ONLY:
        amounts[hand.declarer] = value  # type: ignore[index]
    else:
        amounts[hand.declarer] = value * len(defenders)  # type: ignore[index]
        amounts[hand.penalty_by] = -value * len(defenders)  # type: ignore[index]
    return Result(
        contract=contract,
        made=True,
        over_tricks=0,
        under_tricks=0,
        amounts=amounts,
        tricks_counted=hand.tricks,
        stake=value,
        notes=(f"{hand.penalty_by} {penalty.display_name}: the stakes are claimed",),
        outcome=Outcome.PLAYED,
        penalty=penalty,
    )


def _score_wrong_cards(
    hand: Hand,
    contract: Contract,
    players: tuple[str, ...],
    declaring: tuple[str, ...],
    defenders: tuple[str, ...],
    rules: RuleSet,
) -> Result:
    """Hoyle's Games Modernized, Solo Whist, A Digest of the Laws: "Should the cards be
    improperly divided, the declaring hand or hands win the stakes if their own cards are
    correct, and any person or partnership with the incorrect number of cards must, whatever has
    happened, lose the stake". The stake is the contract's, with no over- or under-tricks
    ("whatever has happened": the tricks do not count).

    Declaring side correct: it wins as if it had made the contract, and the defenders who held
    the wrong number pay their side's stakes between them (as "the actual offender pays" for a
    revoke; the first named pays an odd unit). Declaring side wrong: it loses as if it had
    failed, paying each defender whose cards were correct; a defender who also held the wrong
    number loses his stake too, so he is paid nothing."""
    wrong = tuple(hand.wrong_cards)
    value = rules.stake(contract).base * rules.stake_unit
    declaring_correct = not any(p in wrong for p in declaring)
    amounts = dict.fromkeys(players, 0)
    if rules.payment is Payment.WINNER_ONLY:
        if declaring_correct:
            for p in declaring:
                amounts[p] = value
    elif declaring_correct:
        total = value * len(defenders)
        for p, share in _shares(total, [p for p in declaring]).items():
            amounts[p] += share
        for offender, share in _shares(total, [p for p in wrong if p in defenders]).items():
            amounts[offender] -= share
    else:
        paid = [p for p in defenders if p not in wrong]
        for p in paid:
            amounts[p] = value
        if paid:
            for p, share in _shares(value * len(paid), list(declaring)).items():
                amounts[p] -= share
    return Result(
        contract=contract,
        made=declaring_correct,
        over_tricks=0,
        under_tricks=0,
        amounts=amounts,
        tricks_counted=hand.tricks,
        stake=value,
        notes=(f"{_names(wrong)} held the wrong number of cards",),
        outcome=Outcome.PLAYED,
        wrong_cards=True,
    )


def _score_all_passed(hand: Hand, players: tuple[str, ...], rules: RuleSet) -> Result:
    amounts = dict.fromkeys(players, 0)
    stake = 0
    if rules.all_passed is AllPassed.GENERAL_MISERE:
        # Hoyle: "the player who takes the last or thirteenth trick pays an agreed stake ... to
        # each of his adversaries". Under winner-only points each adversary scores it instead.
        stake = rules.general_misere_stake * rules.stake_unit
        loser = hand.last_trick_by
        for p in players:
            if p != loser:
                amounts[p] = stake
        if rules.payment is Payment.PER_OPPONENT:
            # A general misère always has its loser (validate() made sure).
            amounts[loser] = -stake * (len(players) - 1)  # type: ignore[index]
    return Result(
        contract=None,
        made=False,
        over_tricks=0,
        under_tricks=0,
        amounts=amounts,
        stake=stake,
        all_passed=rules.all_passed,
        outcome=Outcome.ALL_PASSED,
    )
