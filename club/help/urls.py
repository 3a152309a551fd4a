"""Help: the guides of docs/, served by the app."""

from club.help.views import help

urlpatterns = [*help.urlpatterns]
