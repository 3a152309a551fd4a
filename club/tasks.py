"""Background tasks (django-tasks): publishing a night when its correction window ends, and
sending the results emails. Run the worker with `python manage.py db_worker`."""

from __future__ import annotations

from django_tasks import task

from club.models import Night


@task()
def publish_when_due(night_id: int) -> bool:
    """Publish the night if its window has ended and nobody published it meanwhile."""
    from club.services import publish

    try:
        night = Night.objects.get(pk=night_id)
    except Night.DoesNotExist:
        return False  # deleted after it was reopened
    return publish.publish(night, None, only_if_due=True) is not None


@task()
def send_results(publication_id: int) -> dict[str, int]:
    """Send a publication's due emails; queue itself again for the ones to retry."""
    from club.services import publish, results_mail

    report = results_mail.send_publication(publication_id)
    if report.next_attempt_at is not None:
        publish.send_later(publication_id, report.next_attempt_at)
    return {"sent": report.sent, "failed": report.failed, "retrying": report.retrying}
