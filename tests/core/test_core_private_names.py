"""Each private name of Django's that club/core/ uses, as it is used: a Django upgrade that
renames one, drops it or changes its signature fails here, naming the piece to check again
(club/core/README.md lists them, with why and what they buy).

These tests check the names and shapes only; what each piece does is tested beside it
(tests/core/test_prepared.py, tests/core/test_sqlite_writer_queue.py).
"""

from __future__ import annotations

import inspect

import pytest
from django.db import connection
from django.db.backends.sqlite3 import base as sqlite_base
from django.db.models import query
from django.db.models.fields.mixins import FieldCacheMixin
from django.db.models.sql.compiler import SQLCompiler

from club.play.models import Night, Seat


def _parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


# -- club/core/prepared.py: PreparedRead ---------------------------------------------------------


def test_get_related_populators_takes_klass_info_select_and_the_database():
    assert _parameters(query.get_related_populators) == ["klass_info", "select", "db"]


def test_a_related_populator_populates_an_instance_from_a_row():
    assert _parameters(query.RelatedPopulator.populate) == ["self", "row", "from_obj"]


def test_a_relations_cached_value_is_read_and_set_on_its_field():
    assert _parameters(FieldCacheMixin.get_cached_value)[:2] == ["self", "instance"]
    assert _parameters(FieldCacheMixin.set_cached_value) == ["self", "instance", "value"]
    field = Seat._meta.get_field("table")
    assert isinstance(field, FieldCacheMixin)


def test_the_compiler_takes_expressions_for_its_converters():
    assert _parameters(SQLCompiler.get_converters) == ["self", "expressions"]


@pytest.mark.django_db
def test_a_compiled_select_related_query_keeps_what_prepared_read_takes_from_it():
    """After as_sql(): klass_info (the model, its columns, the related objects' infos with their
    field and direction), select (each column's expression first), col_count, and
    annotation_col_map."""
    queryset = Night.objects.select_related("season__club").filter(pk=1)
    compiler = queryset.query.get_compiler(using=connection.alias)
    sql, params = compiler.as_sql()
    assert params == (1,) or list(params) == [1]
    info = compiler.klass_info
    assert info is not None and info["model"] is Night
    fields = info["select_fields"]
    assert fields == list(range(fields[0], fields[-1] + 1))
    (season,) = info["related_klass_infos"]
    assert season["field"].name == "season" and season["reverse"] is False
    assert season["related_klass_infos"][0]["field"].name == "club"
    column = compiler.select[fields[0]][0]
    assert column.target.attname == "id"
    assert isinstance(compiler.col_count, int) and compiler.col_count == len(compiler.select)
    assert compiler.annotation_col_map == {}
    converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
    assert isinstance(converters, dict)
    populators = query.get_related_populators(info, compiler.select, connection.alias)
    assert [type(p) for p in populators] == [query.RelatedPopulator]


# -- club/core/prepared.py: PreparedInsert --------------------------------------------------------


def test_a_model_refuses_its_unsaved_relations_before_a_save_by_this_method():
    from django.db.models import Model

    assert _parameters(Model._prepare_related_fields_for_save) == [
        "self",
        "operation_name",
        "fields",
    ]


@pytest.mark.django_db
def test_an_unsaved_relation_is_refused_by_it_as_save_refuses_it(night):
    from club.clubs.models import AuditEvent
    from club.play.models import Night

    event = AuditEvent(night=Night(season=night.season, date=night.date), action="create")
    with pytest.raises(ValueError, match="unsaved related object"):
        event._prepare_related_fields_for_save(operation_name="save")


def test_a_primary_keys_converters_and_its_values_preparation_take_the_connection():
    from django.db.models.fields import Field

    assert _parameters(Field.get_db_converters) == ["self", "connection"]
    assert _parameters(Field.get_db_prep_save) == ["self", "value", "connection"]
    assert _parameters(Field.pre_save) == ["self", "model_instance", "add"]


@pytest.mark.django_db
def test_the_backend_builds_an_inserts_returning_clause_or_reads_the_last_id():
    from club.play.models import Hand

    pk = Hand._meta.pk
    assert pk is not None
    assert _parameters(connection.ops.return_insert_columns) == ["fields"]
    assert _parameters(connection.ops.last_insert_id) == ["cursor", "table_name", "pk_name"]
    assert isinstance(connection.features.can_return_columns_from_insert, bool)
    if connection.features.can_return_columns_from_insert:
        returning, params = connection.ops.return_insert_columns([pk])
        assert returning.upper().startswith("RETURNING") and not params
    assert "id" not in [f.attname for f in Hand._meta.local_concrete_fields if not f.primary_key]


# -- club/core/sqlite_backend/: the writers' queue -----------------------------------------------


@pytest.mark.parametrize("name", ["_start_transaction_under_autocommit", "_commit", "_rollback"])
def test_the_sqlite_backend_begins_commits_and_rolls_back_by_these_methods(name):
    method = getattr(sqlite_base.DatabaseWrapper, name)
    assert _parameters(method) == ["self"]


def test_the_sqlite_backend_closes_by_close_and_knows_an_in_memory_database():
    assert _parameters(sqlite_base.DatabaseWrapper._close) == ["self"]
    assert _parameters(sqlite_base.DatabaseWrapper.is_in_memory_db) == ["self"]


@pytest.fixture
def queued_sqlite(tmp_path, django_db_blocker):
    """A connection of the club's SQLite backend to a file of its own, under an alias of its
    own, so that atomic() goes through Django's own paths to the overridden methods."""
    from django.db import connections
    from django.db.utils import load_backend

    alias = "core-writer-queue"
    name = str(tmp_path / "queue.sqlite3")
    config = connections.configure_settings(
        {"default": {"ENGINE": "club.core.sqlite_backend", "NAME": name}}
    )["default"]
    config["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 5}
    wrapper = load_backend("club.core.sqlite_backend").DatabaseWrapper(config, alias)
    connections[alias] = wrapper
    try:
        with django_db_blocker.unblock():  # a file of the test's own, not the test database
            yield wrapper
            wrapper.close()
    finally:
        del connections[alias]


def test_django_still_begins_commits_rolls_back_and_closes_through_the_overridden_methods(
    queued_sqlite,
):
    """atomic() must begin by _start_transaction_under_autocommit and end by _commit or
    _rollback, and close() by _close: else the queue is never taken, or never let go."""
    from django.db import transaction

    from club.core.sqlite_backend.base import _queue

    queue = _queue(queued_sqlite.settings_dict["NAME"])
    assert not queue._held
    with transaction.atomic(using=queued_sqlite.alias):
        assert queue._held and queued_sqlite._holds_queue  # taken at BEGIN
    assert not queue._held  # let go at COMMIT
    with pytest.raises(LookupError), transaction.atomic(using=queued_sqlite.alias):
        assert queue._held
        raise LookupError("the save went wrong")
    assert not queue._held  # let go at ROLLBACK
    # As atomic() begins, then the connection lost with the transaction open.
    queued_sqlite.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    assert queue._held
    queued_sqlite.close()
    assert not queue._held  # let go when the connection closes mid-transaction
