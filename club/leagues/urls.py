"""The leagues' addresses: /leagues/... for the organiser and readers of a league, and
/c/<slug>/leagues/... for a club's secretaries. Each part of the app adds its own section."""

from django.urls import path

from club.leagues.views import cards, fixtures, invitations, leagues, organisers, registers

# The organiser: sign-up, leagues, settings, clubs invited
urlpatterns = [
    path("leagues/", organisers.league_list, name="league_list"),
    path("leagues/signup/", organisers.league_signup, name="league_signup"),
    path("leagues/signup/sent/", organisers.league_signup_sent, name="league_signup_sent"),
    path(
        "leagues/signup/confirm/<str:token>/",
        organisers.league_signup_confirm,
        name="league_signup_confirm",
    ),
    path("leagues/new/", organisers.league_new, name="league_new"),
    path("leagues/<slug:league>/", leagues.league_home, name="league_home"),
    path("leagues/<slug:league>/settings/", leagues.league_settings_view, name="league_settings"),
    path("leagues/<slug:league>/clubs/", invitations.league_clubs, name="league_clubs"),
    path(
        "leagues/<slug:league>/clubs/<int:entry_id>/withdraw/",
        invitations.league_invitation_withdraw,
        name="league_invitation_withdraw",
    ),
    *fixtures.urlpatterns,  # fixtures, a match and its night, the clubs' calendar feeds
    *cards.urlpatterns,  # the league table, the away side's card link, the match's card
    *registers.urlpatterns,  # every club's register, same person, transfers
]

# A club's secretaries: the league's invitations
club_urlpatterns = [
    path("leagues/", invitations.club_leagues, name="club_leagues"),
    path(
        "leagues/<slug:league>/accept/",
        invitations.league_invitation_accept,
        name="league_invitation_accept",
    ),
    path(
        "leagues/<slug:league>/decline/",
        invitations.league_invitation_decline,
        name="league_invitation_decline",
    ),
    *registers.club_urlpatterns,  # a club names its players for a league
]
