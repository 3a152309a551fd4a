"""An organiser's sign-up (an account with no club, confirmed by an emailed link), the list of
the leagues a person organises or plays in, and making a league.

The sign-up and the confirmation are limited per client address and per email address, as the
club's sign-up is (club.clubs.services.ratelimit): a script can neither fill the server with
accounts nor flood a mailbox with links."""

from __future__ import annotations

import hashlib

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from club.clubs.queries import access
from club.clubs.services import ratelimit
from club.clubs.services.signup import signup_open
from club.leagues.forms.leagues import LeagueForm, OrganiserSignupForm
from club.leagues.models import League, LeagueClub
from club.leagues.services import organisers as service
from club.leagues.services.leagues import LeagueError, create_league

HOUR = 3600
LIMITS = getattr(
    settings,
    "LEAGUE_SIGNUP_LIMITS",
    {
        "league-signup-client": (10, HOUR),
        "league-signup-address": (3, HOUR),
        "league-confirm-client": (30, 10 * 60),
    },
)


def _too_many(request: HttpRequest, keys: list[tuple[str, str]]) -> HttpResponse | None:
    for limit, key in keys:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
        verdict = ratelimit.hit(f"{limit}:{digest}", *LIMITS[limit])
        if not verdict.allowed:
            minutes = max(1, (verdict.retry_after + 59) // 60)
            response = render(
                request, "clubs/signup/too_many.html", {"minutes": minutes}, status=429
            )
            response["Retry-After"] = str(verdict.retry_after)
            return response
    return None


def _client(request: HttpRequest) -> str:
    return get_client_ip_address(request) or "unknown"


@require_http_methods(["GET", "POST"])
def league_signup(request: HttpRequest) -> HttpResponse:
    """A stranger: an account, then "check your email". Someone signed in makes a league at once."""
    if request.user.is_authenticated:
        return redirect("league_new")
    if not signup_open():
        return render(request, "clubs/signup/closed.html", status=404)
    form = OrganiserSignupForm(request.POST or None)
    if request.method == "POST":
        keys = [("league-signup-client", _client(request))]
        email = request.POST.get("email", "").strip().lower()
        if email:
            keys.append(("league-signup-address", email))
        refused = _too_many(request, keys)
        if refused is not None:
            return refused
        if form.is_valid():
            done = service.sign_up(
                form.cleaned_data["email"],
                form.cleaned_data["password"],
                request.build_absolute_uri("/").rstrip("/"),
            )
            request.session["league_signup_email"] = done.email
            return redirect("league_signup_sent")
    return render(
        request, "leagues/signup.html", {"form": form}, status=422 if form.errors else 200
    )


def league_signup_sent(request: HttpRequest) -> HttpResponse:
    return render(
        request, "leagues/signup_sent.html", {"email": request.session.get("league_signup_email")}
    )


def league_signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: the account is active and signed in, on to making a league."""
    refused = _too_many(request, [("league-confirm-client", _client(request))])
    if refused is not None:
        return refused
    try:
        user, first = service.confirm(token)
    except service.OrganiserSignupError as error:
        # A wrong, old or spent link is a 404, as a wrong token is everywhere else.
        return render(request, "leagues/confirm_failed.html", {"error": str(error)}, status=404)
    if request.user.is_authenticated and request.user.pk != user.pk:
        # Never a silent switch of accounts: the address is confirmed, the person chooses.
        messages.info(
            request,
            f"{user.email} is confirmed. You are logged in as {request.user.get_username()}: "
            "log out, then log in with that address to make its league.",
        )
        return redirect("league_list")
    if request.user.is_authenticated:
        return redirect("league_new")
    if not first:
        messages.info(request, "Your email address is confirmed already: log in.")
        return redirect("login")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, "Your email address is confirmed: now make your league.")
    return redirect("league_new")


@login_required
def league_list(request: HttpRequest) -> HttpResponse:
    """The leagues the person organises, and those their clubs are invited to or play in."""
    user = access.signed_in(request)
    organised = League.objects.filter(organiser=user)
    entries = (
        LeagueClub.objects.filter(club__memberships__user=user)
        .exclude(status=LeagueClub.Status.DECLINED)
        .select_related("league", "club")
        .order_by("-league__season_start", "league__name", "club__name")
    )
    return render(request, "leagues/list.html", {"organised": organised, "entries": entries})


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = create_league(form.new_league(), access.signed_in(request))
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{league.name} is made: now invite its clubs.")
            return redirect("league_clubs", league=league.slug)
    return render(request, "leagues/new.html", {"form": form}, status=422 if form.errors else 200)
