"""After the last hand: a closed night is provisional for the club's correction window,
then published (final), and every player who takes results by email is sent theirs.

The states, on the night row: open -> closed and provisional (`publish_after` set) -> closed and
published (`published_at` set); reopening goes back to open. Every move happens with the night row
locked (SELECT ... FOR UPDATE) and checks the state it moves from, so publishing twice is
impossible whoever gets there first: the secretary's "Publish now", the task scheduled at the
end of the window, or `manage.py publish_due`.

The two background tasks (django-tasks) live here beside what they call, so that the service
that queues them and the tasks that call the service are one module, not two that import each
other. Run the worker with `python manage.py worker`.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.db.transaction import on_commit
from django.template.defaultfilters import pluralize
from django.utils import timezone
from django_tasks import task

from club.clubs.models import AuditEvent, Club, Player
from club.clubs.services import signals as club_signals
from club.clubs.services.setup import SetupError
from club.money.models import Delivery, Publication, Settlement
from club.money.services import ledger, results_mail
from club.play.models import Night
from club.play.services import player_links, signals

log = logging.getLogger(__name__)


class PublishError(Exception):
    """Publishing refused; the message says why."""


def _lock(night_id: int) -> Night:
    return (
        Night.objects.select_for_update(of=("self",))
        .select_related("season", "season__club")
        .get(pk=night_id)
    )


def on_close(night: Night, user: User | None) -> None:
    """Called by close_night inside its transaction, with `night` the locked, just-closed row:
    start the correction window (or publish at once when the club's window is 0)."""
    club = night.season.club
    assert night.closed_at is not None  # close_night has just set it
    when = night.closed_at + dt.timedelta(minutes=club.correction_minutes)
    night.publish_after = when
    night.published_at = None
    night.save(update_fields=["publish_after", "published_at"])
    ledger.sync_night(night, user)
    if club.correction_minutes == 0:
        _publish_locked(night, user)
    else:
        night_id = night.pk
        on_commit(lambda: schedule(night_id, when))


def on_reopen(night: Night, user: User | None) -> None:
    """Called by reopen_night inside its transaction: the night is neither provisional nor
    published any more. Its debts stay (payments made stand); the next close settles the rest,
    and the next publication emails everyone the corrected figures."""
    night.publish_after = None
    night.published_at = None
    night.save(update_fields=["publish_after", "published_at"])


def after_correction(night: Night, user: User | None) -> None:
    """A hand changed in the correction window: the night's debts follow the new settle-up."""
    if night.is_closed:
        ledger.sync_night(night, user)


def schedule(night_id: int, when: dt.datetime) -> None:
    """Ask the task queue to publish the night when its window ends. A backend that cannot run
    tasks later (the immediate one) leaves it to `manage.py publish_due` or the night page."""
    if not publish_when_due.get_backend().supports_defer:
        return
    try:
        publish_when_due.using(run_after=when).enqueue(night_id)
    except Exception:  # the queue being down must not undo the close
        log.exception("Could not schedule the publication of night %s", night_id)


def publish(
    night: Night,
    user: User | None = None,
    *,
    only_if_due: bool = False,
    now: dt.datetime | None = None,
) -> Publication | None:
    """Publish the night now (the secretary), or only if its window has ended (the queue).

    Returns the new publication, or None when there was nothing to do (already published, or
    not yet due). Raises PublishError when a secretary asks for an open night."""
    with transaction.atomic():
        locked = _lock(night.pk)
        if locked.is_published:
            return None
        if not locked.is_closed:
            if only_if_due:
                return None
            raise PublishError("Close the night before publishing its results.")
        now = now or timezone.now()
        if only_if_due and (locked.publish_after is None or locked.publish_after > now):
            return None
        return _publish_locked(locked, user)


def _publish_locked(night: Night, user: User | None) -> Publication | None:
    club = night.season.club
    ledger.sync_night(night, user)
    now = timezone.now()
    # The state transition itself is conditional, so that even where the row lock is no lock
    # (SQLite ignores FOR UPDATE) only one publisher can move the night from provisional.
    moved = Night.objects.filter(
        pk=night.pk, status=Night.Status.CLOSED, published_at__isnull=True
    ).update(published_at=now)
    if moved != 1:
        return None
    night.published_at = now
    last = night.publications.order_by("-number").values_list("number", flat=True).first()
    publication = Publication.objects.create(night=night, number=(last or 0) + 1, by=user)
    recipients = results_mail.recipients(night)
    Delivery.objects.bulk_create(
        Delivery(publication=publication, player_id=pk, email=email) for pk, email in recipients
    )
    # Every link in a results email goes through the player's own link: each recipient's is
    # issued here, with the publication, so the worker composing the emails only reads them. A
    # player who gets no email (no address, unsubscribed, no hand played) gets no link from it.
    emailed = [pk for pk, email in recipients if results_mail.deliverable(email)]
    player_links.tokens_for(list(Player.objects.filter(pk__in=emailed).order_by("pk")))
    AuditEvent.objects.create(
        club=club,
        night=night,
        user=user,
        action=AuditEvent.Action.UPDATE,
        subject=(
            "Corrected results published" if publication.is_correction else "Results published"
        ),
        before={"results": "provisional"},
        after={"results": "final", "emails": publication.deliveries.count()},
    )
    publication_id = publication.pk
    on_commit(lambda: send_later(publication_id))
    return publication


def send_later(publication_id: int, when: dt.datetime | None = None) -> None:
    """Queue the sending of a publication's emails (again later, to retry)."""
    if when is not None and not send_results.get_backend().supports_defer:
        return  # `manage.py publish_due` retries them
    try:
        task = send_results if when is None else send_results.using(run_after=when)
        task.enqueue(publication_id)
    except Exception:  # nothing is lost: the outbox rows stay pending for publish_due
        log.exception("Could not queue the emails of publication %s", publication_id)


def publish_due(now: dt.datetime | None = None) -> tuple[int, int]:
    """The periodic check (`manage.py publish_due`, e.g. from cron every few minutes): publish
    every night whose window has ended, and send the emails whose retry time has come.
    Returns (nights published, emails sent)."""
    now = now or timezone.now()
    published = 0
    due = (
        Night.objects.filter(
            status=Night.Status.CLOSED, published_at__isnull=True, publish_after__lte=now
        )
        .filter(season__club__closed_at=None)  # a closed club publishes and emails nothing more
        .values_list("pk", flat=True)
    )
    for night_id in list(due):
        night = Night(pk=night_id)
        if publish(night, None, only_if_due=True, now=now) is not None:
            published += 1
    sent = 0
    waiting = (
        Delivery.objects.filter(
            Q(status=Delivery.Status.PENDING)
            # being sent by a worker that died holding it (results_mail.send_publication)
            | Q(status=Delivery.Status.SENDING, next_attempt_at__lte=now)
        )
        .filter(player__club__closed_at=None)
        .values_list("publication", flat=True)
        .distinct()
    )
    for publication_id in list(waiting):
        sent += results_mail.send_publication(publication_id, now).sent
    return published, sent


@task()
def publish_when_due(night_id: int) -> bool:
    """Publish the night if its window has ended and nobody published it meanwhile."""
    try:
        night = Night.objects.get(pk=night_id, season__club__closed_at=None)
    except Night.DoesNotExist:
        return False  # deleted after it was reopened, or its club closed
    return publish(night, None, only_if_due=True) is not None


@task()
def send_results(publication_id: int) -> dict[str, int]:
    """Send a publication's due emails; queue itself again for the ones to retry."""
    report = results_mail.send_publication(publication_id)
    if report.next_attempt_at is not None:
        send_later(publication_id, report.next_attempt_at)
    return {"sent": report.sent, "failed": report.failed, "retrying": report.retrying}


def _night_closed(sender: object, night: Night, user: User | None, **kwargs: object) -> None:
    on_close(night, user)


def _night_reopened(sender: object, night: Night, user: User | None, **kwargs: object) -> None:
    on_reopen(night, user)


def _hands_changed(sender: object, night: Night, user: User | None, **kwargs: object) -> None:
    after_correction(night, user)


def connect() -> None:
    """Play's writes, followed inside their transactions (club/play/services/signals.py)."""
    signals.night_closed.connect(_night_closed, dispatch_uid="money.night_closed")
    signals.night_reopened.connect(_night_reopened, dispatch_uid="money.night_reopened")
    signals.hand_saved.connect(_hands_changed, dispatch_uid="money.hand_saved")
    signals.hand_deleted.connect(_hands_changed, dispatch_uid="money.hand_deleted")
    signals.night_deleting.connect(_night_deleting, dispatch_uid="money.night_deleting")
    club_signals.club_purging.connect(_club_purging, dispatch_uid="money.club_purging")
    club_signals.player_forgotten.connect(_player_forgotten, dispatch_uid="money.player_forgotten")


def _club_purging(sender: object, club: Club, **kwargs: object) -> dict[str, list[int]]:
    """The queued publications and emails of the club's nights."""
    return {
        publish_when_due.module_path: list(
            Night.objects.filter(season__club=club).values_list("pk", flat=True)
        ),
        send_results.module_path: list(
            Publication.objects.filter(night__season__club=club).values_list("pk", flat=True)
        ),
    }


def _player_forgotten(sender: object, player: Player, **kwargs: object) -> None:
    Delivery.objects.filter(player=player).update(email="")


def _night_deleting(sender: object, night: Night, **kwargs: object) -> None:
    """Money owed from the night that someone has paid (or netted) is a record of real money:
    deleting the night would take those payments with it."""
    paid = Settlement.objects.filter(debt__night=night).count()
    if paid:
        raise SetupError(
            f"{night} cannot be deleted: {paid} payment{pluralize(paid)} of its money owed "
            "are recorded on the club's ledger, and deleting it would lose them. Correct its "
            "hands instead."
        )
