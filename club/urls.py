"""The site's addresses: each app's own, at the root and under /c/<slug>/ (everything about one
club lives there, and every view checks the user's role in it)."""

from django.contrib import admin
from django.urls import include, path

from club.clubs import urls as clubs
from club.grades import urls as grades
from club.grades.views.club_home import home
from club.help import urls as help
from club.interchange import urls as interchange
from club.leagues import urls as leagues
from club.money import urls as money
from club.operations import urls as operations
from club.play import urls as play
from club.players import urls as players
from club.tournaments import urls as tournaments

club_patterns = [
    *grades.club_urlpatterns,
    *clubs.club_urlpatterns,
    *play.club_urlpatterns,
    *tournaments.club_urlpatterns,
    *players.club_urlpatterns,
    *interchange.club_urlpatterns,
    *leagues.club_urlpatterns,
    *money.club_urlpatterns,
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", home, name="home"),
    *clubs.urlpatterns,
    *play.urlpatterns,
    *operations.urlpatterns,
    *help.urlpatterns,
    *interchange.urlpatterns,
    *leagues.urlpatterns,
    *players.urlpatterns,
    path("c/<slug:slug>/", include(club_patterns)),
    *money.urlpatterns,
]

# The error page gives the request's reference, found in the logs beside the error.
handler500 = "club.operations.views.errors.server_error"
