"""The results email each player gets when a night is published, and its sending.

Sending works through the outbox: one `Delivery` row per player per publication (unique), moved
from pending to sending by a conditional UPDATE before the message goes out, so two workers (or a
retried task) can never both send it; then to sent, or back to pending with a later attempt time
when the mail server failed for a while, or to failed when the address is malformed or refused.
A worker that dies between claiming and marking leaves the row "sending": once
TASKS_MAX_RUN_SECONDS have passed (the worker would have finished long before) the next run takes
it up again, with the same Message-ID, so that a message the server had accepted just before the
kill is shown once by the receiving side.
"""

from __future__ import annotations

import datetime as dt
import smtplib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db.models import F, Min, Q, Sum
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

import scoring
from club.clubs.models import Club, Player, Season
from club.lib import zones
from club.lib.site import absolute
from club.lib.words import listed
from club.money.models import Delivery, Publication
from club.money.queries.whom_to_pay import Counterpart, whom_to_pay
from club.money.services import ledger
from club.play.models import Hand, Night, NightTotal, ScoreLine
from club.play.queries.night import Payment, night_summary
from club.play.queries.table_sheet import REVOKES, hand_rulings, result_text
from club.play.services import player_links
from scoring.standings import competition_ranks

MAX_ATTEMPTS = 5
UNSUBSCRIBE_SALT = "club.unsubscribe"


def retry_delay(attempts: int) -> dt.timedelta:
    """Wait longer after each failed attempt: 1, 4, 16, 64 minutes."""
    return dt.timedelta(minutes=4 ** (attempts - 1))


def unsubscribe_token(player_id: int) -> str:
    return signing.dumps({"p": player_id}, salt=UNSUBSCRIBE_SALT, compress=True)


def player_from_token(token: str) -> int | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    pk = data.get("p") if isinstance(data, dict) else None
    return pk if isinstance(pk, int) else None


PAYEE_SALT = "club.payee"
PAYEE_LINK_DAYS = 180


def payee_token(player_id: int) -> str:
    """The payee's link of the results emails sent before each player had his own link (a
    PlayerLink, club.play.services.player_links): it marks what they are paid, without logging
    in. Signed (SECRET_KEY), it names one player and lasts PAYEE_LINK_DAYS; no email carries a
    new one, and the `owed/<token>/` page answers the ones already sent until they expire."""
    return signing.dumps({"p": player_id}, salt=PAYEE_SALT, compress=True)


def player_from_payee_token(token: str) -> int | None:
    try:
        data = signing.loads(token, salt=PAYEE_SALT, max_age=PAYEE_LINK_DAYS * 24 * 3600)
    except signing.BadSignature:  # also SignatureExpired
        return None
    pk = data.get("p") if isinstance(data, dict) else None
    return pk if isinstance(pk, int) else None


# What goes in each message -------------------------------------------------------------------


@dataclass
class PlayerResult:
    player_id: int
    name: str
    hands: int
    net: int
    table: int | None
    table_place: int | None
    table_size: int
    season_place: int | None
    season_players: int
    payments: list[Payment] = field(default_factory=list)  # those they make or receive
    balance: int | None = None  # None for a points club
    rulings: list[str] = field(default_factory=list)  # "Table 1, hand 3: Revokes: Ann and Cat"


@dataclass
class NightResults:
    night: Night
    club: Club
    players: dict[int, PlayerResult]
    payments: list[Payment] | None


def night_results(night: Night) -> NightResults:
    """Everyone's figures for the night in a fixed number of queries: the night page's summary
    (nets and the core's settle-up), the hand counts, the season places and the ledger."""
    club = night.season.club
    summary = night_summary(night)
    hands = dict(NightTotal.objects.filter(night=night).values_list("player", "hands").order_by())
    by_table: dict[int | None, list[Any]] = {}
    for net in summary.nets:
        by_table.setdefault(net.table, []).append(net)
    table_place: dict[int, int] = {}
    for number, nets in by_table.items():
        if number is None:
            continue
        ordered = sorted(nets, key=lambda n: -n.net)
        for place, n in zip(competition_ranks([n.net for n in ordered]), ordered, strict=True):
            table_place[n.player_id] = place
    season_place, season_players = _season_places(night)
    balances = (
        ledger.balances(club, [n.player_id for n in summary.nets])
        if ledger.keeps_ledger(club)
        else {}
    )
    rulings = _rulings_by_player(night)
    players = {}
    for n in summary.nets:
        players[n.player_id] = PlayerResult(
            player_id=n.player_id,
            name=n.name,
            hands=hands.get(n.player_id, 0),
            net=n.net,
            table=n.table,
            table_place=table_place.get(n.player_id),
            table_size=len(by_table.get(n.table, [])),
            season_place=season_place.get(n.player_id),
            season_players=season_players,
            payments=[p for p in summary.payments or [] if n.name in (p.payer, p.payee)],
            balance=balances.get(n.player_id) if ledger.keeps_ledger(club) else None,
            rulings=rulings.get(n.player_id, []),
        )
    return NightResults(night, club, players, summary.payments)


def _rulings_by_player(night: Night) -> dict[int, list[str]]:
    """The night's rulings (revokes, penalties, void deals, cards wrongly dealt), in words, for
    each player who took part in the hand: two queries (the hands, their revokes), one more for
    the players of the hands that have any."""
    hands = list(
        Hand.objects.filter(table__night=night)
        .filter(
            Q(outcome__in=[scoring.Outcome.VOID, scoring.Outcome.MISDEAL])
            | ~Q(penalty="")
            | Q(revokes__isnull=False)
            | ~Q(wrong_cards=[])
        )
        .distinct()
        .select_related("table", "penalty_by", "rule_set")
        .prefetch_related(REVOKES)
        .order_by("table__round_number", "table__number", "number")
    )
    if not hands:
        return {}
    playing: dict[int, list[int]] = {}
    for hand_id, player_id in ScoreLine.objects.filter(hand__in=hands).values_list(
        "hand_id", "player_id"
    ):
        playing.setdefault(hand_id, []).append(player_id)
    found: dict[int, list[str]] = {}
    for hand in hands:
        words = [w for w in (result_text(hand, hand.rule_set.rules), hand_rulings(hand)) if w]
        line = f"Table {hand.table.number}, hand {hand.number}: " + "; ".join(words)
        for player_id in playing.get(hand.pk, []):
            found.setdefault(player_id, []).append(line)
    return found


def _season_places(night: Night) -> tuple[dict[int, int], int]:
    """Each player's place in the season so far by net (points on a points ladder): one query."""
    field_name = "points" if night.season.standings_method == "points" else "net"
    rows = list(
        NightTotal.objects.filter(season=night.season, night__counts_in_standings=True)
        .values("player")
        .annotate(total=Sum(field_name))
        .order_by("-total", "player")
    )
    places = competition_ranks([r["total"] for r in rows])
    return {r["player"]: place for r, place in zip(rows, places, strict=True)}, len(rows)


# What each results email carries attached: the player's statement (club.money.pdf.statement_mail),
# given at start-up (club/apps.py), since the printed sheets sit above the services.
Attacher = Callable[[Club, Season, Player, int | None], tuple[str, bytes, str] | None]
_attachers: list[Attacher] = []


def attach_to_results(attacher: Attacher) -> None:
    """Attach what `attacher` makes (file name, content, type; None: nothing) to every results
    email from now on."""
    if attacher not in _attachers:
        _attachers.append(attacher)


def _you_owe(club: Club, owes: list[Counterpart]) -> str:
    """ "Bob £0.40 and Cat £0.15": whom the player pays, for "You owe ... in all"."""
    return listed([f"{c.player.name} {club.format_amount(c.amount)}" for c in owes])


def _owe_you(club: Club, owed: list[Counterpart]) -> str:
    """ "Bob owes you £0.40 and Cat £0.15": who pays the player."""
    if not owed:
        return ""
    first, *rest = owed
    return listed(
        [f"{first.player.name} owes you {club.format_amount(first.amount)}"]
        + [f"{c.player.name} {club.format_amount(c.amount)}" for c in rest]
    )


@zones.on_club_clock(lambda delivery, results, token: results.club)  # "closed at": club's clock
def compose(delivery: Delivery, results: NightResults, token: str) -> EmailMessage:
    """The player's results email. Every link in it opens through the player's own link
    (`token`, club.play.services.player_links), so it works with no log-in in a private club and
    shows him what only he may see; the unsubscribe link (RFC 8058) is its own."""
    night, club = results.night, results.club
    player = delivery.player
    mine = results.players.get(player.pk)
    correction = delivery.publication.is_correction
    unsubscribe = absolute(reverse("unsubscribe", args=[club.slug, unsubscribe_token(player.pk)]))
    keeps_ledger = ledger.keeps_ledger(club)
    whom = whom_to_pay(club, player) if keeps_ledger and mine is not None else None
    own_url = absolute(reverse("player_own", args=[club.slug, token]))
    context = {
        "club": club,
        "night": night,
        "player": player,
        "result": mine,
        "correction": correction,
        "points": not keeps_ledger,
        "night_url": absolute(reverse("player_own_night", args=[club.slug, token, night.pk])),
        "statement_url": absolute(
            reverse("player_own_statement", args=[club.slug, token]) + f"?season={night.season_id}"
        ),
        "player_url": own_url,
        "unsubscribe_url": unsubscribe,
        # The own page holds the marking of payments; only a player owed something is sent to it
        # for that.
        "owed_url": own_url,
        "you_owe": _you_owe(club, whom.owes) if whom else "",
        "owe_you": _owe_you(club, whom.owed) if whom else "",
        "marked": [m for m in ledger.marked_for_payee(player, night) if m.undone_at is None]
        if keeps_ledger
        else [],
    }
    subject = render_to_string("money/email/result_subject.txt", context).strip()
    body = render_to_string("money/email/result.txt", context)
    message = EmailMessage(
        subject=" ".join(subject.split()),
        body=body,
        to=[delivery.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            # RFC 8058: the mail provider's own "Unsubscribe" button posts to the link.
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    # The player's statement for the season, money owed included, as a PDF.
    balance = mine.balance if mine is not None else None
    for attacher in _attachers:
        attachment = attacher(club, night.season, player, balance)
        if attachment is not None:
            message.attach(*attachment)
    return message


# Sending ---------------------------------------------------------------------------------------


@dataclass
class SendReport:
    sent: int = 0
    failed: int = 0
    retrying: int = 0
    next_attempt_at: dt.datetime | None = None


def sending_horizon(now: dt.datetime) -> dt.timedelta:
    """How long a claimed row is another worker's: past it, that worker died holding it."""
    return dt.timedelta(seconds=settings.TASKS_MAX_RUN_SECONDS)


def _claim(delivery: Delivery, now: dt.datetime) -> bool:
    """Take the row for this worker: a conditional UPDATE of exactly the state it was read in
    (pending, or being sent by a worker that died), so that of two workers one takes it. While
    it is being sent, `next_attempt_at` says when it may be taken up again."""
    taken = Delivery.objects.filter(
        pk=delivery.pk, status=delivery.status, next_attempt_at=delivery.next_attempt_at
    ).update(
        status=Delivery.Status.SENDING,
        attempts=F("attempts") + 1,
        next_attempt_at=now + sending_horizon(now),
    )
    if taken:
        delivery.attempts += 1
    return bool(taken)


def message_id(delivery: Delivery) -> str:
    """The same for every attempt at one email: a receiving server or mail app that gets it
    twice (a worker killed between the server's "accepted" and the row's "sent") shows it once."""
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(" >") or "localhost"
    return f"<solo-results-{delivery.publication_id}-{delivery.pk}@{domain}>"


def send_publication(publication_id: int, now: dt.datetime | None = None) -> SendReport:
    """Send the publication's due emails; never one already sent or being sent by a worker
    that is alive.

    Each row is claimed, sent and marked on its own, so a worker killed part-way leaves at most
    one row "being sent"; once the horizon (TASKS_MAX_RUN_SECONDS) has passed, the next run
    takes it up again, with the same Message-ID. Rows another worker is sending now are left to
    it: the report asks for a run again when that worker's horizon ends."""
    now = now or timezone.now()
    report = SendReport()
    publication = Publication.objects.select_related(
        "night", "night__season", "night__season__club"
    ).get(pk=publication_id)
    rows = Delivery.objects.filter(publication=publication)
    pending = Q(status=Delivery.Status.PENDING) & (
        Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    )
    abandoned = Q(status=Delivery.Status.SENDING, next_attempt_at__lte=now)
    due = list(rows.filter(pending | abandoned).select_related("player").order_by("id"))
    results = None
    links: dict[int, str] = {}
    for delivery in due:
        if not _claim(delivery, now):
            continue
        delivery.publication = publication
        if not deliverable(delivery.email):
            _record(delivery, _failed(f"Not an email address: {delivery.email!r}"))
            report.failed += 1
            continue
        if results is None:
            results = night_results(publication.night)
            # The players' own links, issued when the night was published: one query that only
            # reads them, unless the secretary revoked one since (the email then carries a new
            # one, as the next email after a revocation does).
            links = player_links.tokens_for([d.player for d in due if deliverable(d.email)])
        try:
            message = compose(delivery, results, links[delivery.player_id])
            message.extra_headers["Message-ID"] = message_id(delivery)
            message.send(fail_silently=False)
        except smtplib.SMTPRecipientsRefused as error:
            reasons = "; ".join(
                f"{code} {msg.decode(errors='replace') if isinstance(msg, bytes) else msg}"
                for code, msg in error.recipients.values()
            )
            _record(delivery, _failed(f"Refused by the mail server: {reasons}"))
            report.failed += 1
        except (smtplib.SMTPException, OSError) as error:
            if delivery.attempts >= MAX_ATTEMPTS:
                _record(delivery, _failed(f"Gave up after {delivery.attempts} attempts: {error}"))
                report.failed += 1
            else:
                at = now + retry_delay(delivery.attempts)
                _record(
                    delivery,
                    {
                        "status": Delivery.Status.PENDING,
                        "next_attempt_at": at,
                        "error": f"Attempt {delivery.attempts} failed, will retry: {error}"[:300],
                    },
                )
                report.retrying += 1
                report.next_attempt_at = min(filter(None, [report.next_attempt_at, at]))
        else:
            _record(
                delivery,
                {
                    "status": Delivery.Status.SENT,
                    "sent_at": timezone.now(),
                    "error": "",
                    "next_attempt_at": None,
                },
            )
            report.sent += 1
    # Rows another worker holds now: look again when it would have finished with them.
    held = rows.filter(status=Delivery.Status.SENDING, next_attempt_at__gt=now).aggregate(
        at=Min("next_attempt_at")
    )["at"]
    if held is not None:
        report.next_attempt_at = min(filter(None, [report.next_attempt_at, held]))
    return report


def deliverable(email: str) -> bool:
    """An address an email can be sent to (a malformed one fails its delivery at once)."""
    try:
        validate_email(email)
    except ValidationError:
        return False
    return True


def _record(delivery: Delivery, fields: dict[str, Any]) -> None:
    """The row's outcome, at once (its own commit), and only while this worker still holds it."""
    Delivery.objects.filter(
        pk=delivery.pk, status=Delivery.Status.SENDING, attempts=delivery.attempts
    ).update(**fields)


def _failed(error: str) -> dict[str, Any]:
    return {"status": Delivery.Status.FAILED, "error": error[:300]}


def delivery_rows(night: Night) -> list[Delivery]:
    """The emails of the night's latest publication, for the night page: one query."""
    return list(
        Delivery.objects.filter(
            publication__night=night,
            publication__number=Publication.objects.filter(night=night)
            .order_by("-number")
            .values("number")[:1],
        )
        .select_related("player", "publication")
        .order_by("player__name")
    )


def recipients(night: Night) -> list[tuple[int, str]]:
    """(player id, address) of the night's players who take results by email and played at
    least one hand: a player seated at a table never played has no result to be sent."""
    scored = NightTotal.objects.filter(night=night).values("player")
    return list(
        Player.objects.filter(pk__in=scored, email_results=True)
        .exclude(email="")
        .values_list("pk", "email")
        .order_by("pk")
    )


@dataclass(frozen=True)
class LeftOut:
    """The night's players who get no results email: those with no address (the secretary can
    add one on the Players page) and those who unsubscribed (their own choice)."""

    no_address: list[Player]
    unsubscribed: list[Player]


def left_out(night: Night) -> LeftOut:
    """Who of the night's players (those who played a hand) gets no email, and why: one query."""
    scored = NightTotal.objects.filter(night=night).values("player")
    rows = list(
        Player.objects.filter(pk__in=scored)
        .filter(Q(email="") | Q(email_results=False))
        .only("pk", "name", "email", "email_results")
        .order_by("name")
    )
    return LeftOut(
        no_address=[p for p in rows if not p.email],
        unsubscribed=[p for p in rows if p.email and not p.email_results],
    )
