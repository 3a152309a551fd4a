"""The tournaments app's addresses under /c/<slug>/."""

from club.tournaments.views import tournaments

club_urlpatterns = [*tournaments.urlpatterns]
