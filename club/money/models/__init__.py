"""The money app's models, each in the table it had when the app was one (db_table)."""

from club.money.models.ledger import Debt, Delivery, Netting, Publication, Settlement

__all__ = ["Debt", "Delivery", "Netting", "Publication", "Settlement"]
