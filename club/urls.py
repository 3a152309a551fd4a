from django.contrib import admin
from django.urls import include, path

from club.views import (
    audit,
    clubs,
    hands,
    ledger,
    lockouts,
    members,
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
    + audit.urlpatterns  # the club's audit trail, deleted nights included
    + lockouts.urlpatterns  # a secretary unlocks a locked-out member
    + nights.urlpatterns
    + hands.urlpatterns
    + standings.urlpatterns
    + players.urlpatterns
    + sheets.urlpatterns  # printable sheets (PDF), club/views/sheets.py
    + tournaments.urlpatterns
    + ledger.urlpatterns  # after the night: publishing, money owed (issue 11)
    + members.urlpatterns  # members' own view, claiming a record, unsubscribing (issue 11)
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", clubs.home, name="home"),
    path("c/<slug:slug>/", include(club_patterns)),
]
