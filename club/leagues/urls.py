"""A league's addresses: at the root (/leagues/...) and under a club (/c/<slug>/leagues/...)."""

from club.leagues.views import fixtures

urlpatterns = [
    *fixtures.urlpatterns,  # fixtures, a match and its night, the clubs' calendar feeds
]

club_urlpatterns: list = []
