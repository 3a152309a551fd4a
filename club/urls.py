from django.contrib import admin
from django.urls import include, path

from club.views import (
    accounts,
    audit,
    clubs,
    grades,
    hands,
    help,
    interchange,
    ledger,
    live,
    lockouts,
    members,
    nights,
    offline,
    players,
    setup,
    sheets,
    standings,
    table_links,
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
    + table_links.club_urlpatterns  # tables' links and QR codes, club/views/table_links.py
    + live.urlpatterns  # the live night board, club/views/live.py
    + grades.urlpatterns  # grade settings, club/views/grades.py
    + ledger.urlpatterns  # after the night: publishing, money owed
    + members.urlpatterns  # members' own view, claiming a record, unsubscribing
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
    *help.urlpatterns,  # the guides of docs/, served by the app (club/views/help.py)
    *interchange.schema_urlpatterns,
    *offline.urlpatterns,  # /sw.js: the service worker must sit at the root to cover every page
    path("c/<slug:slug>/", include(club_patterns)),
    # A table's link, opened on a phone at the table with no login: /t/<token>/.
    *table_links.urlpatterns,
    *ledger.link_urlpatterns,  # the payee marks payments paid at the table
]
