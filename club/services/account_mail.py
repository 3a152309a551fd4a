"""The emails a visitor asks for without logging in: a claim link for a player record, and
Django's password reset. The page that asks only counts the request against its limits and
queues the task; the worker looks the address up and sends. So whether an address is known
shows neither in the answer nor in how long it takes, and a slow mail server slows no page.

Limits (club/ratelimit.py, shared by every node): per address, so that nobody's inbox is filled
by someone else; per client address, so that nobody walks a list of addresses.
"""

from __future__ import annotations

import hashlib
import logging
import secrets

from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import EmailMessage
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django_tasks import task

from club import ratelimit
from club.models import Club, Player, PlayerClaim

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


@task()
def send_password_reset(email: str, domain: str, use_https: bool) -> int:
    """Django's password reset email to each active account with that address (none: none)."""
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return 0
    users = list(form.get_users(form.cleaned_data["email"]))
    form.save(domain_override=domain, use_https=use_https)
    return len(users)
