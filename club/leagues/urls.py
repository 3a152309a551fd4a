"""The leagues' addresses: the organiser's and readers' at the root (/leagues/...), and a club's
own side under /c/<slug>/ (/c/<slug>/leagues/...). Each view module adds its own section."""

from club.leagues.views import registers

urlpatterns = [
    *registers.urlpatterns,  # every club's register, same person, transfers
]

club_urlpatterns = [
    *registers.club_urlpatterns,  # a club names its players for a league
]
