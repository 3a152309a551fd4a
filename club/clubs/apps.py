from django.apps import AppConfig


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.clubs"
    label = "clubs"
    verbose_name = (
        "Clubs: accounts, sign-up, membership, players, rule sets, seasons, a club's life"
    )
