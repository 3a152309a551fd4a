"""The operator's admin of clubs, their members, players, rule sets and seasons."""

from django import forms
from django.contrib import admin

from club.clubs.models import (
    AuditEvent,
    Club,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
    RateWindow,
    RuleSet,
    Season,
)
from club.clubs.services.admin_audit import AuditedAdmin
from club.lib.admin import DerivedAdmin


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
        from club.clubs.services import clubs_lifecycle

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


# An invitation is answered by the invited account's owner in the app; the admin only shows it.
@admin.register(Invitation)
class InvitationAdmin(DerivedAdmin):
    list_display = ["club", "user", "role", "created_at", "accepted_at", "declined_at"]
    list_filter = ["club"]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(DerivedAdmin):
    list_display = ["player", "created_at", "used_at"]


@admin.register(RateWindow)
class RateWindowAdmin(DerivedAdmin):
    """The rate limits' counts kept in the database when Redis is not there
    (club/clubs/services/ratelimit.py):
    read-only, so an operator can see who hit a limit."""

    list_display = ["key", "expires_at", "last_allowed"]
    search_fields = ["key"]
