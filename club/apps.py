from django.apps import AppConfig


class ClubConfig(AppConfig):
    """The project's history, kept as an app of its own so its migrations still run.

    Until the house was split by domain, every model lived in one app labelled "club". Its
    migrations (club/migrations/) still make a new database's tables, in their old names; each
    domain app's first migration then adopts its models' tables without touching them, and the
    last of these migrations removes the models from this label's state.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "club"
    label = "club"
    verbose_name = "Solo Whist club (history)"
