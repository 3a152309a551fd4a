"""Sign-up from the home page (an account and a club in one form), the email's confirmation link,
and the first-run page that takes a new club to its first night.

The sign-up and the confirmation are limited per client address and per email address, as the
log-in is (club.clubs.services.ratelimit, shared by every web node through the cache): a script can
neither fill
the server with clubs nor flood someone's mailbox with links.
"""

from __future__ import annotations

import hashlib

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods

import scoring
from club.clubs.forms.signup import ClubFields, SignupForm
from club.clubs.queries import access
from club.clubs.services import clubs_lifecycle, ratelimit
from club.clubs.services import signup as service
from club.lib import zones

HOUR = 3600
# What each preset counts in: the page's script keeps the rules to start from in the currency's
# unit (pence for £, cents for any other), which the form requires.
PRESET_UNITS = {name: rules.unit for name, rules in scoring.PRESETS.items()}
# (how many, in how many seconds): a club's secretary signs up once; a shared office address
# (one client address for many people) a few times an hour.
LIMITS = getattr(
    settings,
    "SIGNUP_LIMITS",
    {
        "signup-client": (10, HOUR),
        "signup-address": (3, HOUR),
        "confirm-client": (30, 10 * 60),
        "confirm-address": (10, 10 * 60),
    },
)


def _too_many(request: HttpRequest, keys: list[tuple[str, str]]) -> HttpResponse | None:
    """Count this try against each (limit, key); the refusal page when one is used up."""
    for limit, key in keys:
        # Hashed: an address as typed may hold any character, and the cache needs no copy of it.
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
        verdict = ratelimit.hit(f"{limit}:{digest}", *LIMITS[limit])
        if not verdict.allowed:
            minutes = max(1, (verdict.retry_after + 59) // 60)
            response = render(
                request,
                "clubs/signup/too_many.html",
                {"minutes": minutes},
                status=429,
            )
            response["Retry-After"] = str(verdict.retry_after)
            return response
    return None


def _client(request: HttpRequest) -> str:
    return get_client_ip_address(request) or "unknown"


def _site(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A stranger: the account and the club, then "check your email". Someone logged in: the
    club only, open at once."""
    if not service.signup_open():
        return render(request, "clubs/signup/closed.html", status=404)
    user = access.acting_user(request)
    signed_in = user is not None
    form_class = ClubFields if signed_in else SignupForm
    form = form_class(request.POST or None)
    if request.method == "POST":
        keys = [("signup-client", _client(request))]
        email = user.email if user is not None else request.POST.get("email", "")
        if email:
            keys.append(("signup-address", email.strip().lower()))
        refused = _too_many(request, keys)
        if refused is not None:
            return refused
        if form.is_valid():
            try:
                if user is not None:
                    club = clubs_lifecycle.make_club(
                        form.new_club(), user, hidden_until_confirmed=False
                    )
                    messages.success(request, f"{club.name} is made: now its first night.")
                    return redirect("club_first_run", slug=club.slug)
                # Queued for the task worker whether the address is new or known (same work).
                done = service.sign_up(
                    form.new_club(),
                    form.cleaned_data["email"],
                    form.cleaned_data["password"],
                    _site(request),
                )
            except clubs_lifecycle.LifecycleError as error:
                form.add_error("slug", str(error))
            else:
                request.session["signup_email"] = done.email
                return redirect("signup_sent")
    return render(
        request,
        "clubs/signup/form.html",
        {
            "form": form,
            "signed_in": signed_in,
            "site": _site(request),
            "zone_data": {**zones.signup_zone_data(), "presetUnits": PRESET_UNITS},
        },
        status=422 if form.errors else 200,
    )


def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/signup/sent.html", {"email": request.session.get("signup_email")})


def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the email: the account is active, logged in, and on to the first-run page."""
    keys = [("confirm-client", _client(request))]
    try:
        user_id, _club_id = service.read_token(token)
        keys.append(("confirm-address", str(user_id)))
    except service.SignupError:
        pass
    refused = _too_many(request, keys)
    if refused is not None:
        return refused
    try:
        user, club, first = service.confirm(token)
    except service.SignupError as error:
        # A wrong, old or spent link is a 404, as a wrong token is everywhere else.
        return render(
            request, "clubs/signup/confirm_failed.html", {"error": str(error)}, status=404
        )
    if not first:
        messages.info(request, "Your email address is confirmed already: log in.")
        return redirect(reverse("login") + "?next=" + reverse("club", args=[club.slug]))
    # The link proves the address; the person just chose the password on the sign-up form.
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Your email address is confirmed: welcome to {club.name}.")
    return redirect("club_first_run", slug=club.slug)


urlpatterns = [
    path("signup/", signup, name="signup"),
    path("signup/sent/", signup_sent, name="signup_sent"),
    path("signup/confirm/<str:token>/", signup_confirm, name="signup_confirm"),
]


def signup_context(request: HttpRequest) -> dict[str, bool]:
    """Templates offer "Start a club" only while sign-up is open (a context processor)."""
    return {"signup_open": service.signup_open()}
