"""The club data file's addresses: its schemas at the root, export and import under /c/<slug>/."""

from club.interchange.views import interchange

urlpatterns = [*interchange.schema_urlpatterns]

club_urlpatterns = [*interchange.urlpatterns]
