from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.leagues"
    label = "leagues"
    verbose_name = "Leagues: clubs playing each other, fixtures, match cards and the league table"

    def ready(self) -> None:
        from club.clubs.services import signals
        from club.leagues.services.club_life import forget_in_leagues, organisers_kept

        signals.accounts_kept.connect(organisers_kept, dispatch_uid="leagues.organisers_kept")
        signals.player_forgotten.connect(forget_in_leagues, dispatch_uid="leagues.forgotten")
