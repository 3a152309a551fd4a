"""The operator's admin of nights, tables, hands and tables' links and cards."""

from typing import Any

from django.contrib import admin

from club.clubs.models import (
    Season,
)
from club.clubs.services.admin_audit import AuditedAdmin
from club.lib.admin import DerivedAdmin, NoCascadeDelete
from club.play.models import (
    Arrival,
    Hand,
    HandTombstone,
    Night,
    NightSheetCache,
    NightTotal,
    PlayerLink,
    Revoke,
    ScoreLine,
    Seat,
    Table,
    TableCard,
    TableLink,
)


def _closed(night: Night | None) -> bool:
    """A closed night is final: shown in the admin, never changed there (reopen it in the app,
    which records who did)."""
    return night is not None and night.is_closed


class SeatInline(admin.TabularInline):
    """Seats are fixed once a table has hands (the hands name who sat where)."""

    model = Seat
    extra = 0

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None or (not _closed(obj.night) and not obj.hands.exists())

    has_add_permission = has_change_permission
    has_delete_permission = has_change_permission


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True
    can_delete = False  # see NoCascadeDelete

    def has_change_permission(self, request, obj=None) -> bool:
        return not _closed(obj)

    has_add_permission = has_change_permission


@admin.register(Night)
class NightAdmin(NoCascadeDelete, AuditedAdmin):
    """Closing and reopening happen in the app (they lock the night and are audited); a closed
    night is read-only here; a night with hands keeps its season (its score lines carry it), and
    a night only ever moves between seasons of its own club."""

    list_display = ["__str__", "season", "date", "status"]
    list_filter = ["status", "season__club"]
    date_hierarchy = "date"
    inlines = [TableInline]

    def get_readonly_fields(self, request, obj=None):
        fixed = ["status", "closed_at", "closed_by"]
        if obj is not None and Hand.objects.filter(table__night=obj).exists():
            fixed.append("season")
        return fixed

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if obj is not None and "season" in form.base_fields:
            season: Any = form.base_fields["season"]  # a ModelChoiceField
            season.queryset = Season.objects.filter(club=obj.season.club_id)
        return form

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and not _closed(obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and not _closed(obj)


@admin.register(Table)
class TableAdmin(NoCascadeDelete, AuditedAdmin):
    list_display = ["__str__", "night", "round_number"]
    inlines = [SeatInline]

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and not (obj and _closed(obj.night))

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and not (obj and _closed(obj.night))


class RevokeInline(admin.TabularInline):
    """The hand's revokes, shown only: they are part of what the hand was scored from."""

    model = Revoke
    extra = 0
    fields = readonly_fields = ("position", "player")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class ScoreLineInline(admin.TabularInline):
    """The hand's score lines, shown only: they come from the scoring core (see DerivedAdmin)."""

    model = ScoreLine
    extra = 0
    fields = readonly_fields = ("player", "amount", "points", "declared", "made", "mate")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(NoCascadeDelete, AuditedAdmin):
    """Read-mostly: corrections go through the table page, which rescores and audits them. What
    the score follows from is read-only here (changing it would not score the hand again), and a
    hand is never added here (it would have no score lines)."""

    list_display = ["__str__", "table", "declarer", "tricks", "made"]
    list_filter = ["contract", "made"]
    inlines = [RevokeInline, ScoreLineInline]
    readonly_fields = [
        "table",
        "number",
        "rule_set",
        "dealer",
        "sitting_out",
        "contract",
        "declarer",
        "partner",
        "trump",
        "tricks",
        "penalty",
        "penalty_by",
        "turned_suit",
        "last_trick_by",
        "outcome",
        "made",
        "over_tricks",
        "under_tricks",
        "version",
    ]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and not (
            obj and _closed(obj.table.night)
        )

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and not (
            obj and _closed(obj.table.night)
        )


@admin.register(ScoreLine)
class ScoreLineAdmin(DerivedAdmin):
    list_display = ["hand", "player", "amount", "points", "night"]
    list_filter = ["season"]


@admin.register(NightTotal)
class NightTotalAdmin(DerivedAdmin):
    list_display = ["night", "player", "hands", "net", "points", "declared", "made"]
    list_filter = ["season"]


@admin.register(Seat)
class SeatAdmin(AuditedAdmin):
    list_display = ["table", "position", "player"]
    list_filter = ["table__night__season__club"]

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None or (not _closed(obj.table.night) and not obj.table.hands.exists())

    has_delete_permission = has_change_permission


@admin.register(Arrival)
class ArrivalAdmin(admin.ModelAdmin):
    list_display = ["date", "player", "via", "arrived_at", "club"]
    list_filter = ["club", "via"]
    date_hierarchy = "date"


@admin.register(TableLink)
class TableLinkAdmin(DerivedAdmin):
    """Tables' links: issued, revoked and re-issued by a secretary on the night's links page
    (club/play/views/table_links.py), with an audit event each time; shown here, never changed. The
    salt is left out: with the server's key it would rebuild the token."""

    list_display = ["table", "issued_at", "issued_by", "revoked_at", "revoked_by"]
    list_filter = ["table__night__season__club"]
    fields = readonly_fields = (
        "table",
        "token_hash",
        "issued_at",
        "issued_by",
        "revoked_at",
        "revoked_by",
    )


@admin.register(PlayerLink)
class PlayerLinkAdmin(DerivedAdmin):
    """Players' own links: issued with a results email or by a secretary, revoked and re-issued
    on the player's own-link page (club/players/views/own_links.py), audited there; shown here,
    never changed. No salt, as for tables' links."""

    list_display = ["player", "issued_at", "issued_by", "revoked_at", "revoked_by"]
    list_filter = ["player__club"]
    fields = readonly_fields = (
        "player",
        "token_hash",
        "issued_at",
        "issued_by",
        "revoked_at",
        "revoked_by",
    )


@admin.register(TableCard)
class TableCardAdmin(DerivedAdmin):
    """Tables' permanent cards: issued, revoked and re-issued by a secretary in set-up
    (club/play/views/table_cards.py), audited there; shown here, never changed. No salt, as for
    links."""

    list_display = ["label", "club", "number", "issued_at", "issued_by", "revoked_at"]
    list_filter = ["club"]
    fields = readonly_fields = (
        *("club", "label", "number", "token_hash", "issued_at", "issued_by", "revoked_at"),
        "revoked_by",
    )


@admin.register(NightSheetCache)
class NightSheetCacheAdmin(admin.ModelAdmin):
    """Kept PDF sheets of closed nights: deleting one only makes the next download render it."""

    list_display = ["night", "rendered_at", "fingerprint"]
    readonly_fields = ["night", "fingerprint", "rendered_at"]
    exclude = ["pdf"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(HandTombstone)
class HandTombstoneAdmin(DerivedAdmin):
    list_display = ["table", "number", "client_id", "deleted_at"]


@admin.register(Revoke)
class RevokeAdmin(DerivedAdmin):
    list_display = ["hand", "position", "player"]
