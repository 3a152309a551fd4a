from django.contrib import admin
from django.urls import include, path

from club.clubs.views import accounts, audit, club_account, invitations, lockouts, setup, signup
from club.grades.views import club_home as clubs
from club.grades.views import grades, players, standings
from club.help.views import help
from club.interchange.views import interchange
from club.money.views import ledger, members, payee
from club.operations.views import health, metrics
from club.play.views import (
    arrivals,
    draw,
    hands,
    live,
    nights,
    offline,
    sheets,
    table_cards,
    table_links,
    tokens,
)
from club.tournaments.views import tournaments

# Everything about one club lives under /c/<slug>/, and every view checks the user's role there.
club_patterns = (
    clubs.urlpatterns
    + setup.urlpatterns
    + audit.urlpatterns  # the club's audit trail, deleted nights included
    + lockouts.urlpatterns  # a secretary unlocks a locked-out member
    + invitations.club_urlpatterns  # a secretary withdraws an unanswered invitation
    + nights.urlpatterns
    + arrivals.urlpatterns  # who is here, the door QR code, club/play/views/arrivals.py
    + draw.urlpatterns  # drawing a night's tables, late arrivals, club/play/views/draw.py
    + hands.urlpatterns
    + standings.urlpatterns
    + players.urlpatterns
    + sheets.urlpatterns  # printable sheets (PDF), club/play/views/sheets.py
    + tournaments.urlpatterns
    + interchange.urlpatterns  # the club data file, club/interchange/views/interchange.py
    + table_links.club_urlpatterns  # tables' links and QR codes, club/play/views/table_links.py
    + table_cards.club_urlpatterns  # tables' permanent cards, club/play/views/table_cards.py
    + tokens.club_urlpatterns  # revoking and re-issuing a link or a card, club/play/views/tokens.py
    + live.urlpatterns  # the live night board, club/play/views/live.py
    + grades.urlpatterns  # grade settings, club/grades/views/grades.py
    + ledger.urlpatterns  # after the night: publishing, money owed
    + members.urlpatterns  # members' own view, claiming a record, unsubscribing
    + payee.urlpatterns  # the payee's own page, from the link in their results email
    + signup.club_urlpatterns  # a new club's first run, club/clubs/views/signup.py
    + club_account.urlpatterns  # closing the club's account, forgetting a player
)

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's own: says so when the email could not be sent (club/clubs/views/accounts.py).
    path(
        "accounts/password_reset/",
        accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", clubs.home, name="home"),
    *signup.urlpatterns,  # an account and a club in one form, and the email's link
    # Browsers ask for /favicon.ico whatever the page says: the app's icon, not a 404.
    path("favicon.ico", offline.favicon, name="favicon"),
    *invitations.urlpatterns,  # an account's owner accepts or declines a club's invitation
    *health.urlpatterns,  # /healthz for a load balancer: database, cache, task queue
    *metrics.urlpatterns,  # /metrics for Prometheus, with METRICS_TOKEN only
    *help.urlpatterns,  # the guides of docs/, served by the app (club/help/views/help.py)
    *interchange.schema_urlpatterns,
    *offline.urlpatterns,  # /sw.js: the service worker must sit at the root to cover every page
    path("c/<slug:slug>/", include(club_patterns)),
    # A table's link, opened on a phone at the table with no login: /t/<token>/.
    *table_links.urlpatterns,
    # A table's permanent card: players seat themselves, /k/<token>/ (club/play/views/table_cards.py).
    *table_cards.urlpatterns,
    *ledger.link_urlpatterns,  # the payee marks payments paid at the table
]

# The error page gives the request's reference, found in the logs beside the error.
handler500 = "club.operations.views.errors.server_error"
