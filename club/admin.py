from django.contrib import admin

from club.models import (
    AuditEvent,
    Club,
    Entry,
    Hand,
    Membership,
    Night,
    NightSheetCache,
    NightTotal,
    Player,
    RuleSet,
    ScoreLine,
    Season,
    Seat,
    Table,
    Tournament,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "unit_kind", "is_public"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["club", "role"]
    autocomplete_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "active"]
    list_filter = ["club", "active"]
    search_fields = ["name"]


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    """A rule set that has scored hands keeps its stakes (DESIGN.md section 4): copy it instead."""

    list_display = ["name", "club", "preset", "created_at"]
    list_filter = ["club"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.is_used:
            return ["club", "preset", "data"]
        return []


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Once a season has scored hands its rule sets change only through set-up, which re-scores
    the ladder and records it."""

    list_display = ["name", "club", "start", "end", "rule_set", "standings_method"]
    list_filter = ["club"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.score_lines.exists():
            return ["club", "rule_set", "standings_rule_set"]
        return []


class SeatInline(admin.TabularInline):
    """Seats are fixed once a table has hands (the hands name who sat where)."""

    model = Seat
    extra = 0

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None or not obj.hands.exists()

    has_add_permission = has_change_permission  # type: ignore[assignment]
    has_delete_permission = has_change_permission  # type: ignore[assignment]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True
    can_delete = False  # see NoCascadeDelete


class NoCascadeDelete:
    """Deleting a night, a table or a hand takes scored hands with it. The app deletes them after
    saying what goes and asking, in one transaction, with an audit event
    (club.services.setup.delete_night, club.services.hands.delete_hand); the admin's delete and
    its "delete selected" action would do neither, so they are off here."""

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Night)
class NightAdmin(NoCascadeDelete, admin.ModelAdmin):
    list_display = ["__str__", "season", "date", "status"]
    list_filter = ["status", "season__club"]
    date_hierarchy = "date"
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(NoCascadeDelete, admin.ModelAdmin):
    list_display = ["__str__", "night", "round_number"]
    inlines = [SeatInline]


class ScoreLineInline(admin.TabularInline):
    """The hand's score lines, shown only: they come from the scoring core (see DerivedAdmin)."""

    model = ScoreLine
    extra = 0
    fields = ["player", "amount", "points", "declared", "made", "mate"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(NoCascadeDelete, admin.ModelAdmin):
    """Read-mostly: corrections go through the table page, which rescores and audits them. What
    the score follows from is read-only here (changing it would not score the hand again), and a
    hand is never added here (it would have no score lines)."""

    list_display = ["__str__", "table", "declarer", "tricks", "made"]
    list_filter = ["contract", "made"]
    inlines = [ScoreLineInline]
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
        "revoke_by",
        "last_trick_by",
        "made",
        "over_tricks",
        "under_tricks",
        "version",
    ]

    def has_add_permission(self, request) -> bool:
        return False


class DerivedAdmin(admin.ModelAdmin):
    """Rows the app derives (score lines from the scoring core, night totals from the database's
    triggers): shown, never edited here, so they cannot drift from the hands."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ScoreLine)
class ScoreLineAdmin(DerivedAdmin):
    list_display = ["hand", "player", "amount", "points", "night"]
    list_filter = ["season"]


@admin.register(NightTotal)
class NightTotalAdmin(DerivedAdmin):
    list_display = ["night", "player", "hands", "net", "points", "declared", "made"]
    list_filter = ["season"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "position", "player"]
    list_filter = ["table__night__season__club"]

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None or not obj.table.hands.exists()

    has_delete_permission = has_change_permission  # type: ignore[assignment]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "joined_round", "withdrawn_after_round"]
    list_filter = ["tournament"]


@admin.register(AuditEvent)
class AuditEventAdmin(DerivedAdmin):
    """The record of who changed what: read here, never edited or deleted."""

    list_display = ["at", "user", "action", "subject", "night_label", "club"]
    list_filter = ["action", "club"]
    readonly_fields = [
        "club",
        "night",
        "night_label",
        "user",
        "at",
        "action",
        "subject",
        "before",
        "after",
    ]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Read-mostly: rounds are drawn and closed on the tournament page, which audits them."""

    list_display = ["name", "club", "night", "status", "current_round", "rounds", "is_public"]
    list_filter = ["status", "scoring_method", "club"]
    search_fields = ["name"]
    readonly_fields = ["night", "seed", "current_round", "status", "planned_max_meetings"]
    inlines = [EntryInline]


@admin.register(NightSheetCache)
class NightSheetCacheAdmin(admin.ModelAdmin):
    """Kept PDF sheets of closed nights: deleting one only makes the next download render it."""

    list_display = ["night", "rendered_at", "fingerprint"]
    readonly_fields = ["night", "fingerprint", "rendered_at"]
    exclude = ["pdf"]

    def has_add_permission(self, request) -> bool:
        return False
