from django.apps import AppConfig


class MoneyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.money"
    label = "money"
    verbose_name = "Money: the ledger, settle-up, publishing and statements"

    def ready(self) -> None:
        from club.money.pdf.statement_mail import statement_attachment
        from club.money.services import publish, results_mail
        from club.money.views import ledger

        results_mail.attach_to_results(statement_attachment)  # each player's statement, a PDF
        publish.connect()  # a night's close, reopening and corrections reach the ledger
        ledger.connect()  # the night page and a table's link page show the debts
