from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.players"
    label = "players"
    verbose_name = "Players: their own pages, by their own link and across clubs"
