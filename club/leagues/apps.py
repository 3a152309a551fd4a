from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.leagues"
    label = "leagues"
    verbose_name = "Leagues: clubs playing each other, fixtures, match cards and the league table"
