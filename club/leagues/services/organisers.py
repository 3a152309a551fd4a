"""An organiser's sign-up: an account with no club, confirmed by a link to the email address.

The club sign-up's way (club.clubs.services.signup), without the club: the request hashes the
password and queues the rest (`finish_organiser_sign_up`), the same for an address that has an
account and one that has not, so neither the page nor its time says which. The account is made
inactive until the signed link comes back; the link carries the account, works for
SIGNUP_WAITS_DAYS days, and once used only says so. Through it the organiser belongs to no club.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django_tasks import task

from club.clubs.services.clubs_lifecycle import SIGNUP_WAITS_DAYS

SALT = "club.leagues.organiser.confirm"
MAX_AGE = SIGNUP_WAITS_DAYS * 24 * 3600


class OrganiserSignupError(Exception):
    """The link is wrong, expired or its account gone; the message says what to do."""


@dataclass(frozen=True)
class SignedUp:
    email: str


def confirmation_token(user: User) -> str:
    return signing.dumps({"o": user.pk}, salt=SALT, compress=True)


def read_token(token: str) -> int:
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise OrganiserSignupError(
            f"This link is more than {SIGNUP_WAITS_DAYS} days old: sign up again."
        ) from None
    except signing.BadSignature:
        raise OrganiserSignupError(
            "This link is not right: copy the whole of it from the email, or sign up again."
        ) from None
    return int(data["o"])


def _send(to: str, template: str, context: dict[str, Any]) -> None:
    subject, _, body = render_to_string(template, context).partition("\n")
    send_mail(subject.strip(), body.lstrip("\n"), None, [to])


def _url(site: str, name: str, *args: Any) -> str:
    return site.rstrip("/") + reverse(name, args=args)


def sign_up(email: str, password: str, site: str) -> SignedUp:
    """The request's part: the password hashed, the rest queued (the task row never holds the
    password itself). `site` is the address signed up at, e.g. https://solo.example.org."""
    finish_organiser_sign_up.enqueue(email, make_password(password), site)
    return SignedUp(email)


def _account(email: str) -> User | None:
    return User.objects.filter(email__iexact=email).order_by("pk").first() or (
        User.objects.filter(username__iexact=email).first()
    )


@task()
def finish_organiser_sign_up(email: str, password_hash: str, site: str) -> str:
    """The task worker's part: a new inactive account and the confirmation link; for a known
    address nothing is made, and the address is emailed the link again (not yet confirmed) or
    how to log in and make a league. Returns what it did, for the logs."""
    existing = _account(email)
    if existing is None:
        try:
            with transaction.atomic():
                user = User.objects.create(
                    username=email, email=email, password=password_hash, is_active=False
                )
        except IntegrityError:
            # The same address signed up twice at once: the other task made the account.
            existing = _account(email)
            if existing is None:
                raise
        else:
            _send(
                email,
                "leagues/email/organiser_confirm.txt",
                {"url": _url(site, "league_signup_confirm", confirmation_token(user))},
            )
            return "made"
    assert existing is not None
    if (
        not existing.is_active
        and existing.has_usable_password()
        and not existing.memberships.exists()  # a club's sign-up waits for its own link
    ):
        _send(
            email,
            "leagues/email/organiser_confirm.txt",
            {"url": _url(site, "league_signup_confirm", confirmation_token(existing))},
        )
        return "pending"
    _send(
        email,
        "leagues/email/organiser_exists.txt",
        {"login_url": _url(site, "login") + "?next=" + reverse("league_new"), "email": email},
    )
    return "exists"


def confirm(token: str) -> tuple[User, bool]:
    """The link came back: the account is active. Returns (user, whether this was the first
    time)."""
    user_id = read_token(token)
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise OrganiserSignupError("This sign-up is gone: sign up again.")
        first = not user.is_active
        if first:
            user.is_active = True
            user.save(update_fields=["is_active"])
    return user, first
