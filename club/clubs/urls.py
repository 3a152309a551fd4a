"""The clubs app's addresses: accounts and sign-up at the site's root, a club's set-up, members,
lock-outs, invitations and closing under /c/<slug>/ (club/urls.py)."""

from django.urls import include, path

from club.clubs.views import (
    accounts,
    club_account,
    invitations,
    lockouts,
    player_lines,
    setup,
    signup,
)

urlpatterns = [
    # Before Django's own: says so when the email could not be sent (club/clubs/views/accounts.py).
    path(
        "accounts/password_reset/",
        accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    *signup.urlpatterns,  # an account and a club in one form, and the email's link
    *invitations.urlpatterns,  # an account's owner accepts or declines a club's invitation
]

club_urlpatterns = [
    *setup.urlpatterns,
    *player_lines.urlpatterns,  # players in bulk: pasted lines or a CSV file, previewed
    *lockouts.urlpatterns,  # a secretary unlocks a locked-out member
    *invitations.club_urlpatterns,  # a secretary withdraws an unanswered invitation
    *club_account.urlpatterns,  # closing the club's account, forgetting a player
]
