from django.contrib import admin
from django.urls import include, path

from club.views import (
    accounts,
    clubs,
    hands,
    nights,
    players,
    setup,
    sheets,
    standings,
    tournaments,
)

# Everything about one club lives under /c/<slug>/, and every view checks the user's role there.
club_patterns = (
    clubs.urlpatterns
    + setup.urlpatterns
    + nights.urlpatterns
    + hands.urlpatterns
    + standings.urlpatterns
    + players.urlpatterns
    + sheets.urlpatterns  # printable sheets (PDF), club/views/sheets.py
    + tournaments.urlpatterns
)

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's own: says so when the email could not be sent (club/views/accounts.py).
    path(
        "accounts/password_reset/",
        accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", clubs.home, name="home"),
    path("c/<slug:slug>/", include(club_patterns)),
]
