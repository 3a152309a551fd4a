"""Clubs invited to a league: the organiser invites a club of this server, its secretaries accept
or decline, and the organiser may withdraw an invitation not yet accepted. Each step is one
transaction and a line of the league's log; the club's secretaries are emailed the invitation."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from club.clubs.models import AuditEvent, Club, Role
from club.leagues.models import League, LeagueClub
from club.leagues.services.leagues import LeagueError, log


def club_named(address: str) -> Club:
    """The club an address names: its slug (crown-anchor), its page's path (/c/crown-anchor/) or
    its page's full URL. A league's own club is no club to invite."""
    text = address.strip()
    path = urlsplit(text).path if "/" in text else text
    parts = [p for p in path.split("/") if p]
    if "c" in parts and parts.index("c") + 1 < len(parts):
        slug = parts[parts.index("c") + 1]
    elif len(parts) == 1:
        slug = parts[0]
    else:
        raise LeagueError(
            "Give the club's address, e.g. crown-anchor, or its page's link, "
            "e.g. https://this-server/c/crown-anchor/."
        )
    club = Club.objects.filter(slug=slug.lower(), hosted_league__isnull=True).first()
    if club is None:
        raise LeagueError(
            f"No club on this server has the address {slug}: ask its secretary for the link "
            "of the club's page."
        )
    return club


def invite(league: League, club: Club, organiser: User, site: str) -> LeagueClub:
    """Invite `club` (again, after it declined); its secretaries are emailed a link to answer."""
    with transaction.atomic():
        entry = LeagueClub.objects.select_for_update().filter(league=league, club=club).first()
        if entry is not None and entry.status == LeagueClub.Status.ACCEPTED:
            raise LeagueError(f"{club.name} plays in the league already.")
        if entry is not None and entry.status == LeagueClub.Status.INVITED:
            raise LeagueError(f"{club.name} is invited already and has not answered yet.")
        if entry is None:
            entry = LeagueClub.objects.create(league=league, club=club)
        else:
            # Declined before: asked again, as a new invitation.
            entry.status = LeagueClub.Status.INVITED
            entry.invited_at = timezone.now()
            entry.answered_at = None
            entry.answered_by = None
            entry.save()
        log(league, organiser, AuditEvent.Action.ISSUE, f"Invited {club.name}"[:120])
    _email_secretaries(entry, site)
    return entry


def _email_secretaries(entry: LeagueClub, site: str) -> None:
    addresses = sorted(
        {
            m.user.email
            for m in entry.club.memberships.filter(role=Role.SECRETARY).select_related("user")
            if m.user.email
        }
    )
    if not addresses:
        return
    text = render_to_string(
        "leagues/email/invitation.txt",
        {
            "entry": entry,
            "league": entry.league,
            "url": site.rstrip("/") + reverse("club_leagues", args=[entry.club.slug]),
        },
    )
    subject, _, body = text.partition("\n")
    send_mail(subject.strip(), body.lstrip("\n"), None, addresses)


def answer(entry: LeagueClub, accept: bool, secretary: User) -> LeagueClub:
    """The club's secretary accepts or declines an open invitation."""
    with transaction.atomic():
        entry = (
            LeagueClub.objects.select_for_update(of=("self",))
            .select_related("league", "club")
            .get(pk=entry.pk)
        )
        if entry.status != LeagueClub.Status.INVITED:
            raise LeagueError(
                f"{entry.club.name} has answered this invitation already: "
                f"{entry.get_status_display().lower()}."
            )
        entry.status = LeagueClub.Status.ACCEPTED if accept else LeagueClub.Status.DECLINED
        entry.answered_at = timezone.now()
        entry.answered_by = secretary
        entry.save(update_fields=["status", "answered_at", "answered_by"])
        log(
            entry.league,
            secretary,
            AuditEvent.Action.CONFIRM if accept else AuditEvent.Action.REVOKE,
            f"{entry.club.name} {'accepted' if accept else 'declined'} the invitation"[:120],
        )
    return entry


def withdraw(entry: LeagueClub, organiser: User) -> None:
    """The organiser withdraws an invitation the club has not accepted."""
    with transaction.atomic():
        entry = (
            LeagueClub.objects.select_for_update(of=("self",))
            .select_related("league", "club")
            .get(pk=entry.pk)
        )
        if entry.status == LeagueClub.Status.ACCEPTED:
            raise LeagueError(f"{entry.club.name} has accepted: it plays in the league.")
        log(
            entry.league,
            organiser,
            AuditEvent.Action.DELETE,
            f"Invitation of {entry.club.name} withdrawn"[:120],
            before={"status": entry.status},
        )
        entry.delete()
