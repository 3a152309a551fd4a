"""Members' own view: a user whose account is linked to their player record sees their
nights and their money owed and sets their email preferences; players claim their record with a
one-time link sent to the address the club has for them; any results email's unsubscribe link
works without logging in."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from club.clubs.models import Player, PlayerClaim
from club.clubs.queries import access
from club.clubs.services import account_mail
from club.money.forms.ledger import ClaimForm, EmailPreferencesForm
from club.money.queries.money_owed import pay_rows
from club.money.services import ledger, results_mail
from club.money.views.ledger import debt_pay_url, own_player
from club.play.models import NightTotal

CLAIM_VALID_FOR = dt.timedelta(hours=24)


@never_cache
@login_required
def me(request: HttpRequest, slug: str) -> HttpResponse:
    """My nights, my money owed and my email preferences, for the player linked to this user."""
    club = access.club_or_404(slug)
    player = own_player(request, club)
    if player is None:
        if not access.can(request.user, club, access.READ):
            # Not theirs to see: the same bare 404 as a club that does not exist, which does
            # not name the club.
            raise Http404("No such club")
        return render(request, "money/members/unlinked.html", {"club": club}, status=404)
    form = EmailPreferencesForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your email preferences are saved.")
        return redirect("me", slug=club.slug)
    nights = list(
        NightTotal.objects.filter(player=player)
        .select_related("night")
        .order_by("-night__date", "-night_id")[:30]
    )
    context = {"club": club, "player": player, "form": form, "nights": nights}
    if ledger.keeps_ledger(club):
        debts = ledger.open_debts(club, player)
        context["pay_rows"] = pay_rows(club, debts, False, player, debt_pay_url(club))
        context["marked"] = ledger.marked_for_payee(player)
        context["balance"] = sum(
            d.outstanding if d.payee_id == player.pk else -d.outstanding for d in debts
        )
    return render(request, "money/members/me.html", context)


@csrf_exempt  # RFC 8058: the mail provider posts "List-Unsubscribe=One-Click", with no token
def unsubscribe(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The link in every results email: GET asks, POST stops the emails (the page's button, or
    the mail provider's one-click unsubscribe). No login needed: the signed token names the
    player, and it only ever turns emails off."""
    club = access.club_or_404(slug)
    player_id = results_mail.player_from_token(token)
    player = get_object_or_404(Player, pk=player_id or 0, club=club)
    done = False
    if request.method == "POST":
        player.email_results = False
        player.save(update_fields=["email_results"])
        done = True
    return render(
        request, "money/members/unsubscribe.html", {"club": club, "player": player, "done": done}
    )


def claim(request: HttpRequest, slug: str) -> HttpResponse:
    """Ask for a one-time link to claim your player record, sent to the address the club has."""
    club = access.club_or_404(slug)
    if not club.players_may_claim or not access.can(request.user, club, access.READ):
        # A private club answers outsiders as a club that does not exist (its name unsaid).
        raise Http404("No such club")
    form = ClaimForm(request.POST or None)
    sent = False
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        refused = account_mail.allowed(request, "claim", email)
        if refused is not None and refused.retry_after:
            form.add_error(
                None,
                "Too many requests from here: try again in "
                f"{max(1, refused.retry_after // 60)} minutes.",
            )
            response = render(
                request, "money/members/claim.html", {"club": club, "form": form}, status=429
            )
            response["Retry-After"] = str(refused.retry_after)
            return response
        if refused is None:
            account_mail.send_claim_link.enqueue(club.pk, email)
        # The same answer whether or not the address is known, or over its own limit: no
        # probing for members' emails, by the words or by the time taken.
        sent = True
    return render(request, "money/members/claim.html", {"club": club, "form": form, "sent": sent})


def claim_confirm(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The one-time link: link the signed-in account, or create one, to the player record."""
    club = access.club_or_404(slug)
    found = (
        PlayerClaim.objects.select_related("player")
        .filter(token_hash=account_mail.claim_token_hash(token), player__club=club)
        .first()
    )
    if found is None:
        raise Http404("No such link")
    problem = None
    if found.used_at is not None:
        problem = "This link has been used already."
    elif found.created_at < timezone.now() - CLAIM_VALID_FOR:
        problem = "This link has expired: ask for a new one."
    elif found.player.user_id is not None:
        problem = "This player record is linked to an account already."
    if problem:
        return render(
            request, "money/members/claim_done.html", {"club": club, "problem": problem}, status=410
        )
    player = found.player
    form: UserCreationForm[User] | None = (
        None if request.user.is_authenticated else UserCreationForm(request.POST or None)
    )
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            with transaction.atomic():
                # Single use: only the request that flips used_at from empty goes on.
                if not PlayerClaim.objects.filter(pk=found.pk, used_at__isnull=True).update(
                    used_at=timezone.now()
                ):
                    raise IntegrityError("used")
                user = access.signed_in(request) if form is None else form.save()
                if (
                    Player.objects.filter(pk=player.pk, user__isnull=True).update(user=user) != 1
                    or Player.objects.filter(club=club, user=user).count() != 1
                ):
                    raise IntegrityError("taken")
        except IntegrityError:
            return render(
                request,
                "money/members/claim_done.html",
                {
                    "club": club,
                    "problem": "This record or your account is linked already: ask the secretary.",
                },
                status=409,
            )
        if form is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Your account is linked to {player.name}.")
        return redirect("me", slug=club.slug)
    return render(
        request, "money/members/claim_confirm.html", {"club": club, "player": player, "form": form}
    )


urlpatterns = [
    path("me/", me, name="me"),
    path("unsubscribe/<str:token>/", unsubscribe, name="unsubscribe"),
    path("claim/", claim, name="claim"),
    path("claim/<str:token>/", claim_confirm, name="claim_confirm"),
]
