from django.apps import AppConfig


class PlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.play"
    label = "play"
    verbose_name = "Play: nights, tables, hands, the draw, arrivals, table links and cards"

    def ready(self) -> None:

        from club.play.services import club_rows, player_links

        club_rows.connect()  # a club's nights go with the club
        player_links.connect()  # a forgotten player's own link stops working
