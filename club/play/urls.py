"""The play app's addresses: a club's nights, tables, hands, the draw and its links and cards
under /c/<slug>/; a table's link (/t/) and card (/k/) and the service worker at the root."""

from django.urls import path

from club.play.views import (
    arrivals,
    audit,
    draw,
    first_night,
    hands,
    live,
    nights,
    offline,
    rule_sets,
    sheets,
    table_cards,
    table_links,
    tokens,
)

urlpatterns = [
    # Browsers ask for /favicon.ico whatever the page says: the app's icon, not a 404.
    path("favicon.ico", offline.favicon, name="favicon"),
    *offline.urlpatterns,  # /sw.js: the service worker must sit at the root to cover every page
    # A table's link, opened on a phone at the table with no login: /t/<token>/.
    *table_links.urlpatterns,
    # A table's permanent card: players seat themselves, /k/<token>/.
    *table_cards.urlpatterns,
]

club_urlpatterns = [
    *rule_sets.urlpatterns,  # seasons and rule sets
    *audit.urlpatterns,  # the club's audit trail, deleted nights included
    *nights.urlpatterns,
    *arrivals.urlpatterns,  # who is here, the door QR code
    *draw.urlpatterns,  # drawing a night's tables, late arrivals
    *hands.urlpatterns,
    *sheets.urlpatterns,  # a night's printed sheets (PDF)
    *table_links.club_urlpatterns,  # tables' links and QR codes
    *table_cards.club_urlpatterns,  # tables' permanent cards
    *tokens.club_urlpatterns,  # revoking and re-issuing a link or a card
    *live.urlpatterns,  # the live night board
    *first_night.club_urlpatterns,  # a new club's first run
]
