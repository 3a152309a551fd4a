"""The players' side: a person's own pages, across the clubs they play in, at the root."""

from club.players.views import home

urlpatterns = [
    *home.urlpatterns,  # /me/: a person's home across the clubs whose player records they claimed
]

club_urlpatterns: list = []
