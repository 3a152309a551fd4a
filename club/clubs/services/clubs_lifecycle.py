"""A club's life on the server: made (by sign-up or by an operator), closed, reopened, deleted for
good; and a player forgotten.

Closing hides the club at once (`Club.objects` no longer finds it, so every page, list and link of
it is a 404) and sets the date after which `manage.py purge_clubs` deletes it. The purge leaves no
row that refers to the club, its players or its accounts that belong to no other club: only the
operator's log line says it was there. The database protects recorded play (PROTECT foreign keys
from hands, seats, debts and entries to players, rule sets and seasons; triggers keeping the night
totals), so the purge deletes from the leaves up, in one transaction: all of it or none.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import dataclass

from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

import scoring
from club.clubs.models import (
    AuditEvent,
    Club,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
    Role,
    RuleSet,
    Season,
)
from club.clubs.queries.closing_clubs import CLOSED_SUBJECT
from club.clubs.services import closing_mail, signals
from club.lib.money import unit_mismatch

log = logging.getLogger(__name__)

KEEP_CLOSED_DAYS = 14  # a closed club can be reopened this long, then it is deleted for good
SIGNUP_WAITS_DAYS = 7  # a sign-up whose email was never confirmed is deleted after this
FORMER_PLAYER = "Former player"


class LifecycleError(Exception):
    """The change cannot be made; the message says why."""


# --- making a club --------------------------------------------------------------------------


@dataclass(frozen=True)
class NewClub:
    name: str
    slug: str
    unit_kind: str = Club.UnitKind.MONEY
    currency_symbol: str = "£"
    minor_units: int = 100
    time_zone: str = "Europe/London"
    preset: str = "hoyle"


def slug_taken(slug: str) -> bool:
    """Closed clubs keep their address until they are deleted (they may be reopened)."""
    return Club.all_objects.filter(slug=slug).exists()


def free_slug(name: str) -> str:
    """The club's name as an address ("crown-anchor"), or with "-2", "-3"... when taken."""
    base = (slugify(name)[:50] or "club").strip("-") or "club"
    slug, n = base, 2
    while slug_taken(slug):
        slug = f"{base}-{n}"
        n += 1
    return slug


def make_club(new: NewClub, secretary: User, hidden_until_confirmed: bool) -> Club:
    """The club, its secretary and its first rule set (from the preset), in one transaction. A
    sign-up's club stays hidden until its secretary confirms their email address; one that is
    never confirmed is deleted after SIGNUP_WAITS_DAYS, as a closed club is."""
    now = timezone.now()
    with transaction.atomic():
        if slug_taken(new.slug):
            raise LifecycleError(f"The address {new.slug} is taken: choose another.")
        club = Club(
            name=new.name,
            slug=new.slug,
            unit_kind=new.unit_kind,
            currency_symbol=new.currency_symbol if new.unit_kind == Club.UnitKind.MONEY else "",
            minor_units=new.minor_units if new.unit_kind == Club.UnitKind.MONEY else 1,
            time_zone=new.time_zone,
        )
        if hidden_until_confirmed:
            club.closed_at = now
            club.closed_because = Club.Closure.SIGNUP
            club.delete_after = now + dt.timedelta(days=SIGNUP_WAITS_DAYS)
        club.full_clean(validate_unique=False, validate_constraints=False)
        rules = scoring.preset(new.preset)
        problem = unit_mismatch(club, rules.unit, remedy="give the club that money")
        if problem is not None:
            raise LifecycleError(problem)
        club.save()
        Membership.objects.create(club=club, user=secretary, role=Role.SECRETARY)
        RuleSet.objects.create(
            club=club,
            name=rules.name.replace("-", " ").title(),
            preset=new.preset,
            data=rules.to_dict(),
        )
        AuditEvent.objects.create(
            club=club, user=secretary, action=AuditEvent.Action.CREATE, subject="Club made"
        )
    log.warning("Club %s (id %s) made, secretary account %s", club.slug, club.pk, secretary.pk)
    return club


def confirm_signup(club: Club) -> Club:
    """The secretary confirmed their email address: the club is open."""
    updated = Club.all_objects.filter(pk=club.pk, closed_because=Club.Closure.SIGNUP).update(
        closed_at=None, delete_after=None, closed_because=""
    )
    club.refresh_from_db()
    if updated:
        log.warning("Club %s (id %s) confirmed by its secretary", club.slug, club.pk)
    return club


# --- closing and reopening ------------------------------------------------------------------


def close_club(
    club: Club,
    by: User | None,
    because: str = Club.Closure.SECRETARY,
    days: int = KEEP_CLOSED_DAYS,
    tell_members: bool = True,
) -> Club:
    """Hide the club at once; `purge_clubs` deletes it after `days` (0: at its next run). Once
    the closing commits, each member with an address is emailed
    (club/clubs/services/closing_mail.py),
    unless `tell_members` is off (a club deleted for good at once)."""
    now = timezone.now()
    with transaction.atomic():
        locked = Club.all_objects.select_for_update().get(pk=club.pk)
        if locked.closed_at is not None:
            raise LifecycleError(f"{locked.name} is closed already.")
        locked.closed_at = now
        locked.delete_after = now + dt.timedelta(days=days)
        locked.closed_because = because
        locked.save(update_fields=["closed_at", "delete_after", "closed_because"])
        AuditEvent.objects.create(
            club=locked,
            user=by,
            action=AuditEvent.Action.CLOSE,
            subject=f"{CLOSED_SUBJECT}: deleted after {locked.delete_after:%d %b %Y %H:%M} UTC",
        )
        if tell_members:
            club_id = locked.pk
            transaction.on_commit(lambda: closing_mail.send_closing_notice.enqueue(club_id))
    log.warning(
        "Club %s (id %s) closed (%s): deleted for good after %s",
        locked.slug,
        locked.pk,
        because,
        locked.delete_after.isoformat(),
    )
    return locked


def reopen_club(club: Club, by: User | None = None) -> Club:
    """Undo a closing before the purge: the club is back as it was, every row of it kept."""
    with transaction.atomic():
        locked = Club.all_objects.select_for_update().get(pk=club.pk)
        if locked.closed_at is None:
            raise LifecycleError(f"{locked.name} is not closed.")
        locked.closed_at = None
        locked.delete_after = None
        locked.closed_because = ""
        locked.save(update_fields=["closed_at", "delete_after", "closed_because"])
        AuditEvent.objects.create(
            club=locked, user=by, action=AuditEvent.Action.REOPEN, subject="Club account reopened"
        )
    log.warning("Club %s (id %s) reopened", locked.slug, locked.pk)
    return locked


def closed_club(slug: str) -> Club | None:
    return Club.all_objects.filter(slug=slug).exclude(closed_at=None).first()


# --- deleting for good ------------------------------------------------------------------------


@dataclass(frozen=True)
class Purged:
    slug: str
    club_id: int
    rows: int  # rows deleted, the club's own and its accounts'
    accounts: int  # user accounts deleted (they belonged to no other club)


def _accounts_only_here(club: Club) -> list[int]:
    """The club's accounts that belong to no other club, hold no player record of another club,
    are no operator's (staff) and no other app still needs (`accounts_kept`): they go with the
    club."""
    ids = (
        set(Membership.objects.filter(club=club).values_list("user_id", flat=True))
        | set(Invitation.objects.filter(club=club).values_list("user_id", flat=True))
        | set(club.players.exclude(user=None).values_list("user_id", flat=True))
    )
    elsewhere = (
        set(
            Membership.objects.filter(user_id__in=ids)
            .exclude(club=club)
            .values_list("user_id", flat=True)
        )
        | set(
            Player.objects.filter(user_id__in=ids)
            .exclude(club=club)
            .values_list("user_id", flat=True)
        )
        | set(
            User.objects.filter(Q(is_staff=True) | Q(is_superuser=True), pk__in=ids).values_list(
                "pk", flat=True
            )
        )
    )
    ids -= elsewhere
    for kept in signals.answers(signals.accounts_kept, user_ids=sorted(ids)):
        ids -= set(kept)  # type: ignore[call-overload]
    return sorted(ids)


def _task_rows(club: Club) -> int:
    """The background queue's rows that name the club or its rows (each app says which:
    `club_purging`)."""
    try:
        from django_tasks_db.models import DBTaskResult
    except ImportError:  # pragma: no cover - the queue backend is a dependency
        return 0
    deleted = 0
    for named in signals.answers(signals.club_purging, club=club):
        assert isinstance(named, dict)
        for path, ids in named.items():
            if ids:
                rows = DBTaskResult.objects.filter(task_path=path, args_kwargs__args__0__in=ids)
                deleted += rows.delete()[0]
    return deleted


def delete_rows(club: Club) -> int:
    """Delete the club's rows, each app's first (`club_deleting`: what PROTECTs players, rule
    sets and seasons), then its seasons, rule sets and players; returns how many went."""
    rows = sum(int(n) for n in signals.answers(signals.club_deleting, club=club))  # type: ignore[call-overload]
    rows += Season.objects.filter(club=club).delete()[0]
    rows += RuleSet.objects.filter(club=club).delete()[0]
    rows += PlayerClaim.objects.filter(player__club=club).delete()[0]
    rows += Player.objects.filter(club=club).delete()[0]
    return rows


def _sessions_of(user_ids: list[int]) -> int:
    """Log the deleted accounts out everywhere: their sessions name them."""
    if not user_ids:
        return 0
    wanted = {str(pk) for pk in user_ids}
    doomed = [
        s.pk
        for s in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(s.get_decoded().get("_auth_user_id")) in wanted
    ]
    return Session.objects.filter(pk__in=doomed).delete()[0]


def _lockout_rows(usernames: list[str]) -> int:
    try:
        from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    except ImportError:  # pragma: no cover - axes is a dependency
        return 0
    deleted = 0
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        deleted += model.objects.filter(username__in=usernames).delete()[0]
    return deleted


def purge_club(club: Club) -> Purged:
    """Delete a club and everything that refers to it, for good, in one transaction. Leaves the
    one log line."""
    with transaction.atomic():
        club = Club.all_objects.select_for_update().get(pk=club.pk)
        club_id = club.pk  # the delete below empties club.pk
        rows = _task_rows(club)
        account_ids = _accounts_only_here(club)
        usernames = list(User.objects.filter(pk__in=account_ids).values_list("username", flat=True))
        player_ids = list(club.players.values_list("pk", flat=True))
        rows += delete_rows(club)
        # The admin's history of the club's own rows.
        rows += LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(Club), object_id=str(club.pk)
        ).delete()[0]
        rows += LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(Player),
            object_id__in=[str(pk) for pk in player_ids],
        ).delete()[0]
        rows += club.delete()[0]
        rows += _sessions_of(account_ids)
        rows += _lockout_rows(usernames)
        rows += User.objects.filter(pk__in=account_ids).delete()[0]
    purged = Purged(club.slug, club_id, rows, len(account_ids))
    log.warning(
        "Club %s (id %s) deleted for good: %s rows, %s accounts that belonged to no other club",
        purged.slug,
        purged.club_id,
        purged.rows,
        purged.accounts,
    )
    return purged


def delete_club(club: Club) -> None:
    """Delete a club and everything in it at once (demo and benchmark data), with no closing
    and no waiting: `purge_club` is the way for a real club."""
    with transaction.atomic():
        delete_rows(club)
        club.delete()


def due_for_purge(now: dt.datetime | None = None) -> list[Club]:
    return list(
        Club.all_objects.filter(
            closed_at__isnull=False, delete_after__lte=now or timezone.now()
        ).order_by("delete_after", "pk")
    )


def purge_due(now: dt.datetime | None = None) -> list[Purged]:
    """Every closed club whose time is up, each in its own transaction (one failing leaves the
    others deleted and itself whole, to be tried again at the next run)."""
    purged = []
    for club in due_for_purge(now):
        try:
            purged.append(purge_club(club))
        except Exception:
            log.exception(
                "Club %s (id %s) could not be deleted; tried again next run", club.slug, club.pk
            )
    return purged


# --- forgetting a player --------------------------------------------------------------------


def former_name(club: Club) -> str:
    taken = set(club.players.filter(name__startswith=FORMER_PLAYER).values_list("name", flat=True))
    n = 1
    while f"{FORMER_PLAYER} {n}" in taken:
        n += 1
    return f"{FORMER_PLAYER} {n}"


def forget_in_trail(club: Club, old: str, new: str, old_email: str = "") -> None:
    """Take a forgotten player's name (and address) out of a club's audit trail: `new` stands
    where `old` stood as a word, but not inside another player's longer name."""
    others = list(club.players.exclude(name=new).values_list("name", flat=True))
    # The address first: "ann@example.org" holds the name "Ann" as a word.
    renames = [_Renamer(old_email, "(a forgotten address)", [])] if old_email else []
    renames.append(_Renamer(old, new, others))
    for event in AuditEvent.objects.filter(club=club):
        subject, before, after = event.subject, event.before, event.after
        for rename in renames:
            subject = rename.text(subject)
            before, after = rename.json(before), rename.json(after)
        if (subject, before, after) != (event.subject, event.before, event.after):
            AuditEvent.objects.filter(pk=event.pk).update(
                subject=subject, before=before, after=after
            )


class _Renamer:
    """Replaces a name where it stands as a word, but not inside another player's longer name:
    forgetting "Ann" leaves "Ann Baxter" as it was."""

    def __init__(self, old: str, new: str, others: list[str]) -> None:
        self.pattern = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)", re.IGNORECASE)
        self.new = new
        self.others = sorted((o for o in others if self.pattern.search(o)), key=len, reverse=True)

    def text(self, text: str) -> str:
        kept = {}
        for n, other in enumerate(self.others):
            marker = f"\x00{n}\x00"
            text, found = re.subn(rf"(?<!\w){re.escape(other)}(?!\w)", marker, text)
            if found:
                kept[marker] = other
        text = self.pattern.sub(self.new, text)
        for marker, other in kept.items():
            text = text.replace(marker, other)
        return text

    def json(self, value: object) -> object:
        """Every string of a JSON value (keys too), renamed."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.json(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.json(v) for k, v in value.items()}
        return value


def _account_only_here(user_id: int, club: Club) -> bool:
    """The account belongs to no other club (no membership, no player record there) and is no
    operator's (staff): forgetting its player deletes it."""
    return not (
        Membership.objects.filter(user_id=user_id).exclude(club=club).exists()
        or Player.objects.filter(user_id=user_id).exclude(club=club).exists()
        or User.objects.filter(Q(is_staff=True) | Q(is_superuser=True), pk=user_id).exists()
    )


def _delete_account(user_id: int) -> None:
    """The account, its sessions and its lock-out records (its club rows name it SET_NULL)."""
    usernames = list(User.objects.filter(pk=user_id).values_list("username", flat=True))
    _sessions_of([user_id])
    _lockout_rows(usernames)
    User.objects.filter(pk=user_id).delete()


def forget_player(player: Player, by: User | None) -> Player:
    """The player's name becomes "Former player N"; their email, their account's link and their
    claims are gone, and their name is taken out of the club's audit trail. Their account goes
    too when it belongs to no other club (kept when it is a member or a player of another club,
    or staff). Their hands, score lines, debts and payments stay as they were: every amount,
    standing and settle-up still adds up, under the new name. All of it or none."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        club = player.club
        if player.name.startswith(FORMER_PLAYER):
            raise LifecycleError(f"{player.name} is forgotten already.")
        account = player.user_id
        doomed = account is not None and _account_only_here(account, club)
        if (
            doomed
            and account is not None
            and Membership.objects.filter(club=club, user_id=account, role=Role.SECRETARY).exists()
            and not Membership.objects.filter(club=club, role=Role.SECRETARY)
            .exclude(user_id=account)
            .exists()
        ):
            raise LifecycleError(
                f"{player.name}'s account is the club's only secretary: make someone else "
                "secretary first."
            )
        old, old_email = player.name, player.email
        player.name = former_name(club)
        player.email = ""
        player.email_results = False
        player.user = None
        player.active = False
        player.save(update_fields=["name", "email", "email_results", "user", "active"])
        PlayerClaim.objects.filter(player=player).delete()
        signals.player_forgotten.send(None, player=player, old_name=old)
        forget_in_trail(club, old, player.name, old_email)
        if doomed and account is not None:
            _delete_account(account)
        AuditEvent.objects.create(
            club=club,
            user=None if by is not None and by.pk == account and doomed else by,
            action=AuditEvent.Action.UPDATE,
            subject=f"A player forgotten: now {player.name}",
        )
    return player
