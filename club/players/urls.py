"""The players' side: a person's home across the clubs they play in (at the root), and a player's
own page by their private link with the secretary's page of that link (under /c/<slug>/)."""

from club.players.views import home, own, own_links, own_money

urlpatterns = [
    *home.urlpatterns,  # /me/: a person's home across the clubs whose player records they claimed
]

club_urlpatterns = [
    *own.urlpatterns,  # a player's own page and nights, by their own link
    *own_money.urlpatterns,  # marking a debt paid, the statement, by their own link
    *own_links.urlpatterns,  # the secretary shows, re-issues or revokes a player's link
]
