"""The operator's admin of the ledger: shown, never edited here."""

from django.contrib import admin

from club.lib.admin import DerivedAdmin
from club.money.models import Debt, Delivery, Netting, Publication, Settlement


@admin.register(Debt)
class DebtAdmin(DerivedAdmin):
    list_display = ["night", "payer", "payee", "amount", "created_at"]
    list_filter = ["club"]


@admin.register(Settlement)
class SettlementAdmin(DerivedAdmin):
    list_display = ["debt", "amount", "kind", "at", "by", "via", "undone_at"]
    list_filter = ["kind"]


@admin.register(Netting)
class NettingAdmin(DerivedAdmin):
    list_display = ["club", "amount", "at", "by"]


@admin.register(Publication)
class PublicationAdmin(DerivedAdmin):
    list_display = ["night", "number", "at", "by"]


@admin.register(Delivery)
class DeliveryAdmin(DerivedAdmin):
    list_display = ["publication", "player", "email", "status", "attempts", "sent_at", "error"]
    list_filter = ["status"]
