"""A background task that fails while its cause is there: it looks for a club by slug and
raises when there is none (the tasks command's tests queue it, run the worker, then make the
club)."""

from __future__ import annotations

from django_tasks import task

from club.clubs.models import Club


class NoSuchClub(LookupError):
    pass


@task()
def name_of_club(slug: str, *, shout: bool = False) -> str:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NoSuchClub(f"no club {slug!r} yet")
    return club.name.upper() if shout else club.name
