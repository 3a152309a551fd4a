"""Admin bases shared by the apps' admins: rows the app derives, and deletes left to the app."""

from django.contrib import admin


class NoCascadeDelete:
    """Deleting a night, a table or a hand takes scored hands with it. The app deletes them after
    saying what goes and asking, in one transaction, with an audit event
    (club.play.services.night_setup.delete_night, club.play.services.hands.delete_hand); the
    admin's delete and
    its "delete selected" action would do neither, so they are off here."""

    def has_delete_permission(self, request, obj=None) -> bool:
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
