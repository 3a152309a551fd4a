"""The operator's admin of uploads waiting for their confirmation."""

from django.contrib import admin

from club.interchange.models import StagedUpload


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
