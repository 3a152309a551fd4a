from typing import Any

from django import forms
from django.contrib import admin

from club.admin_audit import AuditedAdmin
from club.models import (
    Arrival,
    AuditEvent,
    Club,
    Debt,
    Delivery,
    Entry,
    Grade,
    GradeBacklog,
    GradeLine,
    GradeNight,
    GradeOptOut,
    GradeSettings,
    Hand,
    HandTombstone,
    Invitation,
    Membership,
    Netting,
    Night,
    NightSheetCache,
    NightTotal,
    Player,
    PlayerClaim,
    Publication,
    RateWindow,
    Revoke,
    RuleSet,
    ScoreLine,
    Season,
    Seat,
    Settlement,
    StagedUpload,
    Table,
    TableCard,
    TableLink,
    Tournament,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class ClubAdminForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = "__all__"  # noqa: DJ007 - the operator's full view of a club

    def clean_slug(self) -> str:
        # The model's own unique check reads open clubs only; a closed club keeps its address.
        slug = self.cleaned_data["slug"]
        if Club.all_objects.filter(slug=slug).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(f"The address {slug} is taken (perhaps by a closed club).")
        return slug


@admin.register(Club)
class ClubAdmin(AuditedAdmin):
    form = ClubAdminForm
    list_display = ["name", "slug", "unit_kind", "is_public", "closed_because", "delete_after"]
    list_filter = [("closed_at", admin.EmptyFieldListFilter)]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name"]
    inlines = [MembershipInline]
    actions = ["reopen"]

    def get_queryset(self, request):
        # Closed clubs too: the operator reopens them here before the purge.
        return Club.all_objects.all()

    @admin.action(description="Reopen the selected closed clubs (undo their closing)")
    def reopen(self, request, queryset) -> None:
        from club.services import clubs_lifecycle

        reopened = []
        for club in queryset.exclude(closed_at=None):
            clubs_lifecycle.reopen_club(club, request.user)
            reopened.append(club.name)
        if reopened:
            self.message_user(request, f"Reopened: {', '.join(reopened)}.")
        else:
            self.message_user(request, "None of those clubs was closed.", level="warning")


@admin.register(Membership)
class MembershipAdmin(AuditedAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["club", "role"]
    autocomplete_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(AuditedAdmin):
    list_display = ["name", "club", "active"]
    list_filter = ["club", "active"]
    search_fields = ["name"]


@admin.register(RuleSet)
class RuleSetAdmin(AuditedAdmin):
    """A rule set that has scored hands keeps its stakes (DESIGN.md section 4): copy it instead."""

    list_display = ["name", "club", "preset", "created_at"]
    list_filter = ["club"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.is_used:
            return ["club", "preset", "data"]
        return []


@admin.register(Season)
class SeasonAdmin(AuditedAdmin):
    """Once a season has scored hands its rule sets change only through set-up, which re-scores
    the ladder and records it."""

    list_display = ["name", "club", "start", "end", "rule_set", "standings_method"]
    list_filter = ["club"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.score_lines.exists():
            return ["club", "rule_set", "standings_rule_set"]
        return []


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


class NoCascadeDelete:
    """Deleting a night, a table or a hand takes scored hands with it. The app deletes them after
    saying what goes and asking, in one transaction, with an audit event
    (club.services.setup.delete_night, club.services.hands.delete_hand); the admin's delete and
    its "delete selected" action would do neither, so they are off here."""

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


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


@admin.register(Entry)
class EntryAdmin(AuditedAdmin):
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
        "link",
        "link_label",
        "device",
        "before",
        "after",
    ]


@admin.register(TableLink)
class TableLinkAdmin(DerivedAdmin):
    """Tables' links: issued, revoked and re-issued by a secretary on the night's links page
    (club/views/table_links.py), with an audit event each time; shown here, never changed. The
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


@admin.register(TableCard)
class TableCardAdmin(DerivedAdmin):
    """Tables' permanent cards: issued, revoked and re-issued by a secretary in set-up
    (club/views/table_cards.py), audited there; shown here, never changed. No salt, as for
    links."""

    list_display = ["label", "club", "number", "issued_at", "issued_by", "revoked_at"]
    list_filter = ["club"]
    fields = readonly_fields = (
        *("club", "label", "number", "token_hash", "issued_at", "issued_by", "revoked_at"),
        "revoked_by",
    )


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
        return super().has_change_permission(request, obj) and not (obj and _closed(obj.night))


@admin.register(NightSheetCache)
class NightSheetCacheAdmin(admin.ModelAdmin):
    """Kept PDF sheets of closed nights: deleting one only makes the next download render it."""

    list_display = ["night", "rendered_at", "fingerprint"]
    readonly_fields = ["night", "fingerprint", "rendered_at"]
    exclude = ["pdf"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(StagedUpload)
class StagedUploadAdmin(admin.ModelAdmin):
    """Imports waiting for their secretary's confirmation (a day at most): deleting one only
    makes its preview ask for the file again."""

    list_display = ["digest", "staged_at"]
    readonly_fields = ["digest", "staged_at"]
    exclude = ["raw"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


# After the night: the ledger and the outbox are records of what happened; they are
# changed only through the app's services (which lock, check and audit), never edited here.


@admin.register(Debt)
class DebtAdmin(DerivedAdmin):
    list_display = ["night", "payer", "payee", "amount", "created_at"]
    list_filter = ["club"]


@admin.register(Settlement)
class SettlementAdmin(DerivedAdmin):
    list_display = ["debt", "amount", "kind", "at", "by", "via", "undone_at"]
    list_filter = ["kind"]


# An invitation is answered by the invited account's owner in the app; the admin only shows it.
@admin.register(Invitation)
class InvitationAdmin(DerivedAdmin):
    list_display = ["club", "user", "role", "created_at", "accepted_at", "declined_at"]
    list_filter = ["club"]


@admin.register(HandTombstone)
class HandTombstoneAdmin(DerivedAdmin):
    list_display = ["table", "number", "client_id", "deleted_at"]


@admin.register(Revoke)
class RevokeAdmin(DerivedAdmin):
    list_display = ["hand", "position", "player"]


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


@admin.register(PlayerClaim)
class PlayerClaimAdmin(DerivedAdmin):
    list_display = ["player", "created_at", "used_at"]


# The Solo grade (club/services/grades.py): the ratings are derived from the hands; a club's
# grade settings and opt-outs are the secretary's (Set-up → Grades), audited here too.
@admin.register(GradeLine)
class GradeLineAdmin(DerivedAdmin):
    list_display = ["hand", "player", "mu", "sigma", "hands", "sort_key"]
    list_filter = ["club"]


@admin.register(GradeNight)
class GradeNightAdmin(DerivedAdmin):
    list_display = ["night", "player", "date", "mu", "sigma", "hands"]
    list_filter = ["club"]


@admin.register(GradeBacklog)
class GradeBacklogAdmin(DerivedAdmin):
    list_display = ["club", "from_key", "at"]


@admin.register(Grade)
class GradeAdmin(DerivedAdmin):
    list_display = ["player", "mu", "sigma", "hands", "day"]
    list_filter = ["club"]


@admin.register(GradeSettings)
class GradeSettingsAdmin(AuditedAdmin):
    list_display = ["club", "enabled", "min_hands", "ladder_by_grade"]


@admin.register(GradeOptOut)
class GradeOptOutAdmin(AuditedAdmin):
    list_display = ["player", "at"]
    list_filter = ["player__club"]
    autocomplete_fields = ["player"]


@admin.register(RateWindow)
class RateWindowAdmin(DerivedAdmin):
    """The rate limits' counts kept in the database when Redis is not there (club/ratelimit.py):
    read-only, so an operator can see who hit a limit."""

    list_display = ["key", "expires_at", "last_allowed"]
    search_fields = ["key"]
