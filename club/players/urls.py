"""The players' app's addresses: a player's own page by their private link, and the secretary's
page of that link, under /c/<slug>/."""

from club.players.views import own, own_links, own_money

urlpatterns: list = []

club_urlpatterns = [
    *own.urlpatterns,  # a player's own page and nights, by their own link
    *own_money.urlpatterns,  # marking a debt paid, the statement, by their own link
    *own_links.urlpatterns,  # the secretary shows, re-issues or revokes a player's link
]
