"""The club data file's addresses: its schemas at the root, export and import under /c/<slug>/;
the league file's under /leagues/."""

from club.interchange.views import interchange, league

urlpatterns = [*interchange.schema_urlpatterns, *league.urlpatterns]

club_urlpatterns = [*interchange.urlpatterns]
