"""The emails a visitor asks for without logging in: a claim link for a player record, and
Django's password reset. The page that asks only counts the request against its limits and
queues the task; the worker looks the address up and sends. So whether an address is known
shows neither in the answer nor in how long it takes, and a slow mail server slows no page.

Limits (club/core/ratelimit.py, shared by every node): per address, so that nobody's inbox is filled
by someone else; per client address, so that nobody walks a list of addresses.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import unicodedata
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django_tasks import task

from club.core import ratelimit
from club.models import Club, Membership, Player, PlayerClaim

log = logging.getLogger(__name__)

# (limit, window in seconds)
PER_ADDRESS = (3, 3600)  # three links an hour to one address
PER_CLIENT = (10, 3600)  # ten requests an hour from one client address


def client_address(request: HttpRequest) -> str:
    """The address the lock-out counts (django-axes, TRUSTED_PROXY_COUNT), so one client is
    one client for every limit."""
    from axes.helpers import get_client_ip_address

    return get_client_ip_address(request) or "unknown"


def allowed(request: HttpRequest, kind: str, email: str) -> ratelimit.Verdict | None:
    """None when the request may go on; else the client's refusal (with its Retry-After). An
    address over its own limit is not refused in words (that would say it is known): its
    request is answered as the others, and nothing is sent."""
    client = ratelimit.hit(f"{kind}:client:{client_address(request)}", *PER_CLIENT)
    if not client.allowed:
        return client
    digest = hashlib.sha256(email.strip().lower().encode()).hexdigest()
    address = ratelimit.hit(f"{kind}:address:{digest}", *PER_ADDRESS)
    return ratelimit.Verdict(False, 0) if not address.allowed else None


def claim_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@task()
def send_claim_link(club_id: int, email: str) -> bool:
    """A one-time link to the player of the club with that address and no account yet, if any."""
    club = Club.objects.get(pk=club_id)
    player = (
        Player.objects.filter(club=club, email__iexact=email.strip(), user__isnull=True)
        .order_by("pk")
        .first()
    )
    if player is None or not club.players_may_claim:
        return False
    token = secrets.token_urlsafe(32)
    PlayerClaim.objects.create(player=player, token_hash=claim_token_hash(token))
    from club.services.results_mail import absolute

    link = absolute(reverse("claim_confirm", args=[club.slug, token]))
    body = render_to_string("club/email/claim.txt", {"club": club, "player": player, "link": link})
    EmailMessage(f"Your player record at {club.name}", body, to=[player.email]).send()
    return True


def _same_address(one: str, other: str) -> bool:
    """As Django's reset compares them: case and Unicode forms aside."""
    return (
        unicodedata.normalize("NFKC", one).casefold()
        == unicodedata.normalize("NFKC", other).casefold()
    )


class MemberPasswordResetForm(PasswordResetForm):
    """Django's password reset, which also reaches a club's member whose account has no password
    yet: a secretary made by `create_club` sets theirs from the emailed link, and once that link
    has expired this is their way in. Django's own form skips every account with no usable
    password (one locked on purpose, say); this one adds only active accounts that are a member
    of a club."""

    def get_users(self, email: str) -> Iterator[User]:
        yield from super().get_users(email)
        members = User.objects.filter(
            email__iexact=email,
            is_active=True,
            pk__in=Membership.objects.values("user_id"),
        )
        for user in members:
            if not user.has_usable_password() and _same_address(email, user.email):
                yield user


@task()
def send_password_reset(email: str, domain: str, use_https: bool) -> int:
    """Django's password reset email to each active account with that address, and to each club
    member's account with no password yet (none: none)."""
    form = MemberPasswordResetForm({"email": email})
    if not form.is_valid():
        return 0
    users = list(form.get_users(form.cleaned_data["email"]))
    form.save(domain_override=domain, use_https=use_https)
    return len(users)


class _OperatorsLink(MemberPasswordResetForm):
    """Sends as the reset does, but a mail server's refusal fails the command that asked (the
    reset only logs it, so that the page never tells whether an address is known)."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        EmailMessage(subject, body, from_email, [to_email]).send()


def send_login_link(email: str) -> int:
    """The operator's fresh link to set a password (`manage.py send_login_link`), for the accounts
    the reset reaches, with links that start with SITE_URL. Sent now, not queued: the operator
    sees the mail server's refusal. Returns how many accounts were sent one."""
    form = _OperatorsLink({"email": email})
    if not form.is_valid():
        return 0
    users = list(form.get_users(form.cleaned_data["email"]))
    if users:
        site = urlsplit(settings.SITE_URL)
        form.save(
            domain_override=site.netloc,
            use_https=site.scheme == "https",
            subject_template_name="club/signup/email_login_link_subject.txt",
            email_template_name="club/signup/email_login_link.txt",
        )
    return len(users)
