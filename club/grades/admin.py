"""The operator's admin of grades: settings and opt-outs edited, the ratings only shown."""

from django.contrib import admin

from club.clubs.services.admin_audit import AuditedAdmin
from club.grades.models import (
    Grade,
    GradeBacklog,
    GradeLine,
    GradeNight,
    GradeOptOut,
    GradeSettings,
)
from club.lib.admin import DerivedAdmin


# The Solo grade (club/grades/services/grades.py): the ratings are derived from the hands; a club's
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
