"""Writing many rows at once, as an import does: what bulk_create writes, without its per-value
SQL compilation (a 100k-line import took half a minute through it). PostgreSQL takes one array a
column (a handful of parameters a statement); SQLite multi-row INSERTs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import connection
from django.db.models.expressions import DatabaseDefault

BATCH = 5000
# Values Django must convert for the database; every other field's value goes in as it is.
_CONVERTED = {"DateTimeField", "DateField", "TimeField", "JSONField", "UUIDField", "DecimalField"}


def insert_rows(model: type[Any], objects: list[Any], now: dt.datetime) -> None:
    """INSERT the unsaved model instances: what bulk_create writes (every concrete field, with the
    defaults the instances were built with, auto_now fields set to `now`), without its per-value
    SQL compilation, which made a 100k-line import take half a minute. Fields added to the models
    later are written from their defaults too."""
    if not objects:
        return
    first = objects[0]
    fields = [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key
        # A field the database fills (db_default) is left to it, as bulk_create does.
        and not isinstance(getattr(first, f.attname, None), DatabaseDefault)
    ]
    params: list[Any] = []
    plan = _plan(fields, now)
    for obj in objects:
        for f, attname, stamp, converted in plan:
            if stamp is not None:
                params.append(stamp)
            elif converted:
                params.append(f.get_db_prep_save(getattr(obj, attname), connection))
            else:
                params.append(getattr(obj, attname))
    _insert(model, fields, params, len(objects))


def insert_values(model: type[Any], rows: list[dict[str, Any]], now: dt.datetime) -> None:
    """INSERT rows given as column values by attribute name (`hand_id`, ...), as insert_rows
    does, without a model instance a row: a field a row leaves out takes its default."""
    if not rows:
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    defaults = {f.attname: f.get_default() for f in fields if f.has_default() or f.null}
    params: list[Any] = []
    plan = _plan(fields, now)
    for row in rows:
        for f, attname, stamp, converted in plan:
            if stamp is not None:
                params.append(stamp)
                continue
            value = row[attname] if attname in row else defaults[attname]
            params.append(f.get_db_prep_save(value, connection) if converted else value)
    _insert(model, fields, params, len(rows))


def _plan(fields: list[Any], now: dt.datetime) -> list[tuple[Any, str, Any, bool]]:
    """Per field: the field, its attribute, the time of writing as the database takes it where
    the field is stamped with it (else None), whether Django must convert its value."""
    plan = []
    for f in fields:
        stamped = getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        stamp = f.get_db_prep_save(now, connection) if stamped else None
        plan.append((f, f.attname, stamp, f.get_internal_type() in _CONVERTED))
    return plan


def _insert(model: type[Any], fields: list[Any], params: list[Any], count: int) -> None:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    head = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES "
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    width = len(fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One array a column (as Django's bulk_create does on PostgreSQL): a statement with a
            # handful of parameters, and the night totals' statement-level trigger runs once.
            arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
            sql = head.removesuffix("VALUES ") + f"SELECT * FROM UNNEST({arrays})"
            for start in range(0, count, BATCH):
                rows = min(BATCH, count - start)
                chunk = params[start * width : (start + rows) * width]
                cursor.execute(sql, [chunk[i::width] for i in range(width)])
            return
        # SQLite: multi-row INSERTs, as many rows as it takes parameters.
        size = max(
            1, min(connection.ops.bulk_batch_size(fields, range(count)), 65535 // width, BATCH)
        )
        for start in range(0, count, size):
            rows = min(size, count - start)
            cursor.execute(
                head + ", ".join([one] * rows), params[start * width : (start + rows) * width]
            )
