from django.contrib import admin
from django.urls import include, path

from club.views import (
    audit,
    clubs,
    hands,
    interchange,
    lockouts,
    nights,
    offline,
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
    + interchange.urlpatterns  # the club data file, club/views/interchange.py
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", clubs.home, name="home"),
    *interchange.schema_urlpatterns,
    *offline.urlpatterns,  # /sw.js: the service worker must sit at the root to cover every page
    path("c/<slug:slug>/", include(club_patterns)),
]
