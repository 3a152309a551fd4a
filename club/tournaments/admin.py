"""The operator's admin of tournaments and their entries."""

from django.contrib import admin

from club.clubs.services.admin_audit import AuditedAdmin
from club.tournaments.models import Entry, Tournament


@admin.register(Entry)
class EntryAdmin(AuditedAdmin):
    list_display = ["player", "tournament", "joined_round", "withdrawn_after_round"]
    list_filter = ["tournament"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(AuditedAdmin):
    """Read-mostly: rounds are drawn and closed on the tournament page, which audits them."""

    list_display = ["name", "club", "night", "status", "current_round", "rounds", "is_public"]
    list_filter = ["status", "scoring_method", "club"]
    search_fields = ["name"]
    readonly_fields = ["night", "seed", "current_round", "status", "planned_max_meetings"]
    inlines = [EntryInline]

    def has_change_permission(self, request, obj=None) -> bool:
        # A finished event whose night is closed is final, here as in the app.
        return super().has_change_permission(request, obj) and not (obj and obj.night.is_closed)
