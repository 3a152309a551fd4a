"""Statements on the hand save's path whose SQL is built once per process.

Compiling a `select_related` query costs Django about a millisecond of CPU, ten times what the
database takes to run it, and a phone's save runs two such reads (its link with the table and
its seats, then the night under its lock). A `PreparedRead` builds its queryset once with marker
values in place of the real ones, keeps the SQL Django compiled for it and what QuerySet
iteration needs to build instances from a row (the converters, the related objects'
populators), and from then on runs that SQL with the real values.

A `PreparedInsert` writes rows of one model (a hand's score lines) by one INSERT whose SQL is
built once for each number of rows, with each value prepared by its field as Django's own
insert prepares it; like `bulk_create` it sends no signals, and it asks nothing back. Its
`create(instance)` writes one new instance as `Model.save()` writes it (its unsaved relations
refused, `auto_now` fields set, pre_save and post_save sent, its id read back), with that SQL:
the ORM's insert builds its statement anew each time, most of what the hand's INSERT costs.

The instances are what the queryset itself would give: `from_db`, the same converters, the same
related objects (tests/club/test_prepared.py compares the two, field by field).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.models.signals import post_save, pre_save

M = TypeVar("M", bound=Model)

# Stand-ins for the values, found again among the compiled parameters (the queries have no other
# values; a real row may hold the same number: it is the parameter's place that is kept). The
# numbers fit every integer column, the positive small ones too: Django compiles a lookup past a
# column's range to nothing.
_TEXT_MARK = "\x00prepared-read-{}\x00"
_NUMBER_MARK = 32_000


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[int, ...]  # where each value goes in params
    # What each value is given as: the backend may wrap a number for its column (psycopg's Int2).
    wrappers: tuple[type, ...]
    model: type[Model]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]
    # Each populator's foreign key when its object is built from the first row only and shared
    # by the others, else None.
    once: list[Any]
    annotations: dict[str, int]
    converters: list[tuple[int, tuple[list[Any], Any]]]


class PreparedRead(Generic[M]):
    """`build(*values)` gives the queryset; `rows(*values)` runs it, compiled once per database.

    `kinds` says each value's type (str or int): the markers built in their place must survive
    the lookups' preparation unchanged, so only plain text and whole numbers are taken."""

    def __init__(
        self,
        build: Callable[..., QuerySet[M]],
        kinds: Sequence[type],
        *,
        shared: Sequence[str] = (),
    ) -> None:
        self._build = build
        self._kinds = tuple(kinds)
        # Relations every row names the same object by (a table's seats all name the table):
        # built from the first row, set on the others, instead of one copy a row.
        self._shared = set(shared)
        self._plans: dict[tuple[str, str], _Plan] = {}
        self._lock = threading.Lock()

    def _markers(self) -> list[Any]:
        markers: list[Any] = []
        for i, kind in enumerate(self._kinds):
            if kind is str:
                markers.append(_TEXT_MARK.format(i))
            elif kind is int:
                markers.append(_NUMBER_MARK + i)
            else:
                raise TypeError(f"a prepared read takes str or int values, not {kind!r}")
        return markers

    def _plan(self, alias: str) -> _Plan:
        key = (alias, connections[alias].vendor)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        with self._lock:
            markers = self._markers()
            queryset = self._build(*markers)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            slots = []
            for marker in markers:
                kind = type(marker)
                found = [i for i, p in enumerate(params) if isinstance(p, kind) and p == marker]
                if len(found) != 1:
                    raise ValueError(f"a prepared read's value must appear once: {found}")
                slots.append(found[0])
            select, klass_info = compiler.select, compiler.klass_info
            assert klass_info is not None
            forward = {
                info["field"].name
                for info in klass_info.get("related_klass_infos", [])
                if not info["reverse"]
            }
            if not self._shared <= forward:
                raise ValueError(f"shared relations must be selected foreign keys: {self._shared}")
            fields = klass_info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            plan = _Plan(
                sql=sql,
                params=tuple(params),
                slots=tuple(slots),
                wrappers=tuple(type(params[slot]) for slot in slots),
                model=klass_info["model"],
                init_list=[f[0].target.attname for f in select[start:end]],
                start=start,
                end=end,
                populators=get_related_populators(klass_info, select, alias),
                once=[
                    info["field"] if info["field"].name in self._shared else None
                    for info in klass_info.get("related_klass_infos", [])
                ],
                annotations=dict(compiler.annotation_col_map or {}),
                converters=list(
                    compiler.get_converters([s[0] for s in select[: compiler.col_count]]).items()
                ),
            )
            self._plans[key] = plan
        return plan

    def rows(self, *values: Any, using: str = "default") -> list[M]:
        """The queryset's instances for these values (one query)."""
        plan = self._plan(using)
        params = list(plan.params)
        for slot, wrap, value, kind in zip(
            plan.slots, plan.wrappers, values, self._kinds, strict=True
        ):
            if type(value) is not kind:
                raise TypeError(f"expected {kind.__name__}, got {value!r}")
            params[slot] = value if wrap is kind else wrap(value)
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            fetched = cursor.fetchall()
        found: list[M] = []
        first: M | None = None
        for raw in fetched:
            row = list(raw)
            for pos, (converters, expression) in plan.converters:
                value = row[pos]
                for converter in converters:
                    value = converter(value, expression, connection)
                row[pos] = value
            obj = plan.model.from_db(using, plan.init_list, row[plan.start : plan.end])
            for populator, key in zip(plan.populators, plan.once, strict=True):
                if key is not None and first is not None:
                    key.set_cached_value(obj, key.get_cached_value(first))
                else:
                    populator.populate(row, obj)
            for name, pos in plan.annotations.items():
                setattr(obj, name, row[pos])
            found.append(obj)  # type: ignore[arg-type]
            if first is None:
                first = found[0]
        return found


class PreparedInsert(Generic[M]):
    """Rows of `model`, given as {column's attname: value} (a column left out takes its field's
    default), written by one INSERT built once for each number of rows."""

    def __init__(self, model: type[M]) -> None:
        self._model = model
        self._fields = [f for f in model._meta.local_concrete_fields if not f.primary_key]
        self._sql: dict[tuple[str, str, int], str] = {}
        self._returning: dict[tuple[str, str], str] = {}

    def _statement(self, alias: str, rows: int) -> str:
        connection = connections[alias]
        key = (alias, connection.vendor, rows)
        sql = self._sql.get(key)
        if sql is None:
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in self._fields)
            marks = "(" + ", ".join(["%s"] * len(self._fields)) + ")"
            sql = f"INSERT INTO {quote(self._model._meta.db_table)} ({columns}) VALUES "
            sql += ", ".join([marks] * rows)
            self._sql[key] = sql
        return sql

    def insert(self, rows: Sequence[dict[str, Any]], using: str = "default") -> None:
        if not rows:
            return
        connection = connections[using]
        params = [
            field.get_db_prep_save(
                row[field.attname] if field.attname in row else field.get_default(), connection
            )
            for row in rows
            for field in self._fields
        ]
        with connection.cursor() as cursor:
            cursor.execute(self._statement(using, len(rows)), params)

    def create(self, instance: M, using: str = "default") -> M:
        """Insert a new instance as `instance.save()` would, and give it its id."""
        model = self._model
        if type(instance) is not model or not instance._state.adding or instance.pk is not None:
            raise TypeError(f"create takes a new {model.__name__}, with no id of its own")
        instance._prepare_related_fields_for_save(operation_name="save")  # type: ignore[attr-defined]
        connection = connections[using]
        pk = model._meta.pk
        assert pk is not None
        sql = self._returning.get((using, connection.vendor))
        if sql is None:
            returning, _ = connection.ops.return_insert_columns([pk])
            sql = f"{self._statement(using, 1)} {returning}".rstrip()
            self._returning[(using, connection.vendor)] = sql
        pre_save.send(sender=model, instance=instance, raw=False, using=using, update_fields=None)
        params = []
        for field in self._fields:
            value = field.pre_save(instance, True)
            if hasattr(value, "resolve_expression"):
                raise TypeError(f"{field.name}: a prepared insert takes values, not expressions")
            params.append(field.get_db_prep_save(value, connection))
        with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
            cursor.execute(sql, params)
            if connection.features.can_return_columns_from_insert:
                new_id = cursor.fetchone()[0]
            else:
                new_id = connection.ops.last_insert_id(cursor, model._meta.db_table, pk.column)
        for converter in pk.get_db_converters(connection):  # type: ignore[attr-defined]
            new_id = converter(new_id, pk, connection)
        setattr(instance, pk.attname, new_id)
        instance._state.adding = False
        instance._state.db = using
        post_save.send(
            sender=model,
            instance=instance,
            created=True,
            update_fields=None,
            raw=False,
            using=using,
        )
        return instance
