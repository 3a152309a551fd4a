from django.apps import AppConfig


class PlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.play"
    label = "play"
    verbose_name = "Play: nights, tables, hands, the draw, arrivals, table links and cards"
