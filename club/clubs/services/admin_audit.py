"""Changes made in Django's admin leave the same trail as changes made in the app.

Every admin page of club data saves and deletes through `AuditedAdmin`, which writes an
AuditEvent (create, update or delete) with the club, the night when the row belongs to one (so it
shows in the night's audit trail), the user, and the fields changed with their values before and
after. Inline rows (a club's members, a night's tables, a table's seats, a tournament's entries)
are recorded the same way.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models, transaction

from club.clubs.models import AuditEvent, Club, RuleSet


def _owner(obj: models.Model) -> tuple[int | None, int | None]:
    """(club id, night id) of a row of club data: each model of club data says (`audit_owner`);
    a row of no club (an account, a task) is not the club's trail."""
    owner = getattr(obj, "audit_owner", None)
    return owner() if owner is not None else (None, None)


def _subject(obj: models.Model) -> str:
    subject = getattr(obj, "audit_subject", None)
    if subject is not None:
        return str(subject())
    return f"{str(obj._meta.verbose_name).capitalize()} {obj} (admin)"[:120]


def _shown(value: Any) -> Any:
    """A field's value as the audit trail keeps it: plain JSON, related rows by name."""
    if value is None or isinstance(value, bool | int | str | dict | list):
        return value
    return str(value)


def _values(obj: models.Model, fields: list[str]) -> dict[str, Any]:
    return {name: _shown(getattr(obj, name, None)) for name in fields}


def record(
    obj: models.Model,
    user: Any,
    action: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    club_id, night_id = _owner(obj)
    if club_id is None:
        return
    if (
        action == AuditEvent.Action.DELETE
        and night_id == obj.pk
        and obj._meta.model_name == "night"
    ):
        night_id = None  # the event outlives the night, as the app's own delete_night's
    if isinstance(obj, Club) and action == AuditEvent.Action.DELETE:
        return  # the club's trail goes with it
    AuditEvent.objects.create(
        club_id=club_id,
        night_id=night_id,
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        subject=_subject(obj),
        before=before,
        after=after,
    )


def _editable_fields(obj: models.Model) -> list[str]:
    return [
        f.name
        for f in obj._meta.concrete_fields
        if f.editable and not f.primary_key and f.name != "data"
    ] + (["data"] if isinstance(obj, RuleSet) else [])


class AuditedAdmin(admin.ModelAdmin):
    """Saves and deletes in one transaction with an AuditEvent, as the app's services do."""

    def save_model(self, request, obj, form, change) -> None:
        with transaction.atomic():
            changed = [n for n in form.changed_data if n in {f.name for f in obj._meta.fields}]
            before = None
            if change and obj.pk is not None:
                stored = type(obj)._default_manager.get(pk=obj.pk)
                before = _values(stored, changed)
            super().save_model(request, obj, form, change)
            if change and not changed:
                return
            action = AuditEvent.Action.UPDATE if change else AuditEvent.Action.CREATE
            shown = changed if change else _editable_fields(obj)
            record(obj, request.user, action, before, _values(obj, shown))

    def delete_model(self, request, obj) -> None:
        with transaction.atomic():
            record(obj, request.user, AuditEvent.Action.DELETE, _values(obj, _editable_fields(obj)))
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        with transaction.atomic():
            for obj in queryset:
                record(
                    obj,
                    request.user,
                    AuditEvent.Action.DELETE,
                    _values(obj, _editable_fields(obj)),
                )
            super().delete_queryset(request, queryset)

    def save_formset(self, request, form, formset, change) -> None:
        with transaction.atomic():
            olds = {}
            for inline in formset.forms:
                if inline.instance.pk is not None and inline.has_changed():
                    stored = type(inline.instance)._default_manager.filter(pk=inline.instance.pk)
                    olds[inline.instance.pk] = stored.first()
            super().save_formset(request, form, formset, change)
            for obj in formset.new_objects:
                record(
                    obj,
                    request.user,
                    AuditEvent.Action.CREATE,
                    after=_values(obj, _editable_fields(obj)),
                )
            for obj, fields in formset.changed_objects:
                old = olds.get(obj.pk)
                record(
                    obj,
                    request.user,
                    AuditEvent.Action.UPDATE,
                    _values(old, fields) if old is not None else None,
                    _values(obj, fields),
                )
            for obj in formset.deleted_objects:
                record(
                    obj,
                    request.user,
                    AuditEvent.Action.DELETE,
                    _values(obj, _editable_fields(obj)),
                )
