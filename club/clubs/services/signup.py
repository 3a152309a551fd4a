"""Sign-up: a stranger's account and club in one step, confirmed by a link to their email address;
and the operator's way, a club made for a secretary who is emailed a link to set their password.

The request checks the form, hashes the password and queues the rest (`finish_sign_up`, run by
the task worker), the same for an address that has an account and one that has not: neither the
page nor its time says which. The account is made inactive and the club hidden
(club.clubs.services.clubs_lifecycle) until the link comes back: an address nobody confirms holds
nothing for long (both are deleted with the club after SIGNUP_WAITS_DAYS). The link is signed
(django.core.signing) with the account and the club, and works once: after it the account is
active and the link only says so.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, replace
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django_tasks import task

from club.clubs.models import Club, Membership, Role
from club.clubs.services import clubs_lifecycle
from club.clubs.services.clubs_lifecycle import SIGNUP_WAITS_DAYS, NewClub

log = logging.getLogger(__name__)

SALT = "club.signup.confirm"
MAX_AGE = SIGNUP_WAITS_DAYS * 24 * 3600


class SignupError(Exception):
    """The link is wrong, expired or used; the message says what to do."""


def signup_open() -> bool:
    return getattr(settings, "SIGNUP", "open") == "open"


def confirmation_token(user: User, club: Club) -> str:
    return signing.dumps({"u": user.pk, "c": club.pk}, salt=SALT, compress=True)


def read_token(token: str) -> tuple[int, int]:
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise SignupError(
            f"This link is more than {SIGNUP_WAITS_DAYS} days old: sign up again."
        ) from None
    except signing.BadSignature:
        raise SignupError(
            "This link is not right: copy the whole of it from the email, or sign up again."
        ) from None
    return int(data["u"]), int(data["c"])


def _send(to: str, template: str, context: dict[str, Any]) -> None:
    subject, _, body = render_to_string(template, context).partition("\n")
    send_mail(subject.strip(), body.lstrip("\n"), None, [to])


@dataclass(frozen=True)
class SignedUp:
    email: str  # the page says "check your email" to this address, known or new alike


def confirm_url(site: str, token: str) -> str:
    return site.rstrip("/") + reverse("signup_confirm", args=[token])


def sign_up(new: NewClub, email: str, password: str, site: str) -> SignedUp:
    """A stranger's sign-up, as the request does it: the password hashed and the rest queued for
    the task worker (`finish_sign_up`), for a new address and a known one alike. So the answer
    and the time it takes are the same whether the address has an account or not; the task row
    holds the password's hash, never the password. `site` is the address the person signed up
    at, e.g. https://solo.example.org."""
    finish_sign_up.enqueue(asdict(new), email, make_password(password), site)
    return SignedUp(email)


@task()
def finish_sign_up(new_club: dict[str, Any], email: str, password_hash: str, site: str) -> str:
    """The sign-up's work, in the task worker: make the inactive account (with the password
    hashed in the request) and the hidden club, and email the confirmation link. When the
    address has an account already, nothing is made and the address is told so by email: the
    link again for the club of a sign-up not yet confirmed (naming the club name kept, when this
    sign-up asked for another), else how to log in. Returns what it did, for the logs."""
    new = NewClub(**new_club)
    existing = _account(email)
    if existing is None:
        try:
            with transaction.atomic():
                user = User.objects.create(
                    username=email, email=email, password=password_hash, is_active=False
                )
                if clubs_lifecycle.slug_taken(new.slug):
                    # Taken since the form was checked: the next free address for its name.
                    new = replace(new, slug=clubs_lifecycle.free_slug(new.slug))
                club = clubs_lifecycle.make_club(new, user, hidden_until_confirmed=True)
        except IntegrityError:
            # The same address signed up twice at once: the other task made the account.
            existing = _account(email)
            if existing is None:
                raise
        else:
            _send(
                email,
                "clubs/signup/email_confirm.txt",
                {"club": club, "url": confirm_url(site, confirmation_token(user, club))},
            )
            return "made"
    assert existing is not None
    pending = _pending_club(existing)
    if pending is not None:
        # The same person again, before confirming: the link again, for the club they made.
        _send(
            email,
            "clubs/signup/email_confirm.txt",
            {
                "club": pending,
                "url": confirm_url(site, confirmation_token(existing, pending)),
                "asked": new.name if new.name != pending.name else "",
                "setup_url": site.rstrip("/") + reverse("club_setup", args=[pending.slug]),
            },
        )
        return "pending"
    _send(
        email,
        "clubs/signup/email_exists.txt",
        {
            "login_url": site.rstrip("/") + reverse("login"),
            "signup_url": site.rstrip("/") + reverse("signup"),
            "email": email,
            "asked": new.name,
        },
    )
    return "exists"


def _account(email: str) -> User | None:
    return User.objects.filter(email__iexact=email).order_by("pk").first() or (
        User.objects.filter(username__iexact=email).first()
    )


def _pending_club(user: User) -> Club | None:
    if user.is_active:
        return None
    return (
        Club.all_objects.filter(
            memberships__user=user,
            memberships__role=Role.SECRETARY,
            closed_because=Club.Closure.SIGNUP,
        )
        .order_by("-pk")
        .first()
    )


def confirm(token: str) -> tuple[User, Club, bool]:
    """The link came back: the account is active and the club open. Returns (user, club,
    whether this was the first time)."""
    user_id, club_id = read_token(token)
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        club = Club.all_objects.filter(pk=club_id).first()
        if (
            user is None
            or club is None
            or not Membership.objects.filter(user=user, club=club).exists()
        ):
            raise SignupError(
                f"This sign-up is gone: it was not confirmed within {SIGNUP_WAITS_DAYS} days, "
                "or the club was deleted. Sign up again."
            )
        if club.closed_because not in ("", Club.Closure.SIGNUP):
            raise SignupError("This club's account is closed.")
        first = not user.is_active or club.closed_because == Club.Closure.SIGNUP
        if not user.is_active:
            user.is_active = True
            user.save(update_fields=["is_active"])
        clubs_lifecycle.confirm_signup(club)
    return user, club, first


def secretary_account(email: str) -> User:
    """The account of this address, or a new one with no password yet (set by the emailed link)."""
    email = email.strip().lower()
    user = User.objects.filter(email__iexact=email).order_by("pk").first()
    if user is None:
        user = User.objects.create_user(username=email, email=email, password=None)
    return user


def invite_secretary(club: Club, email: str, site_url: str | None = None) -> None:
    """The operator's way (`manage.py create_club`): email the club's secretary a link to set
    their account's password (Django's password reset token, valid PASSWORD_RESET_TIMEOUT), and
    the club's first-run page. An account with a password already is told to log in."""
    site = (site_url or settings.SITE_URL).rstrip("/")
    user = secretary_account(email)
    first_run = site + reverse("club_first_run", args=[club.slug])
    context = {"club": club, "first_run": first_run, "login_url": site + reverse("login")}
    if not user.has_usable_password():
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        context["set_password"] = site + reverse(
            "password_reset_confirm", args=[uid, default_token_generator.make_token(user)]
        )
    _send(user.email or email, "clubs/signup/email_invite.txt", context)
