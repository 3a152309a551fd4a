"""The grades app's addresses under /c/<slug>/: the club's home, standings, players, grades."""

from club.grades.views import club_home, grades, players, sheets, standings

club_urlpatterns = [
    *club_home.urlpatterns,
    *standings.urlpatterns,
    *players.urlpatterns,
    *sheets.urlpatterns,  # the standings printed (PDF)
    *grades.urlpatterns,  # grade settings
]
