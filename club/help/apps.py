from django.apps import AppConfig


class HelpConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.help"
    label = "help"
    verbose_name = "Help: the guides served by the app"
