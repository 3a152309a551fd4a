"""The leagues' addresses: `urlpatterns` at the root (/leagues/...), `club_urlpatterns` under
/c/<slug>/ (a club's side of its leagues). Each part of the league has its own section."""

from club.leagues.views import cards

urlpatterns = [
    # The league table, the away side's card link, the match's card section.
    *cards.urlpatterns,
]

club_urlpatterns: list = []
