"""Malformed club data files, as an attacker would write them: however broken a file is, the only
outcome is the reader's own refusal (ImportRefused, shown on the form, printed by import_club),
never a 500 or a traceback, and nothing is written.

The attacks that used to crash the import: JSON nested thousands deep (RecursionError) and an
integer of 5,000 digits (ValueError from Python's limit on int conversion).
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from club.interchange.format.document import Document, ImportRefused, read
from club.interchange.services.csv_sheets import read_csv
from club.interchange.services.importer import existing_for, import_document
from tests.interchange.test_bad_input import counts, sample

pytestmark = pytest.mark.django_db

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECTS = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
HUGE = json.dumps(sample()).replace('"tricks": 5', '"tricks": ' + "9" * 5000, 1).encode()

ATTACKS = {
    "nested lists": DEEP,
    "nested objects": DEEP_OBJECTS,
    "a 5,000-digit integer": HUGE,
    "NaN": json.dumps(sample()).replace('"tricks": 5', '"tricks": NaN', 1).encode(),
    "a 5,000-digit decimal": b'{"format": "solo-whist-club", "version": 1.' + b"5" * 5000 + b"}",
    "a NUL in a name": json.dumps(sample()).replace("Eve Lambert", "Eve\\u0000Lambert").encode(),
    "half a surrogate pair": json.dumps(sample()).replace("Eve Lambert", "Eve\\ud800").encode(),
}


def only_refused(raw: bytes | str) -> Document | None:
    """Read (and, when the reader accepts it, import as a dry run): ImportRefused is the only
    exception allowed out."""
    try:
        document = read(raw, existing_for(None))
    except ImportRefused as refused:
        assert refused.problems and all(str(p) for p in refused.problems)
        return None
    with contextlib.suppress(ImportRefused):
        import_document(document, dry_run=True)
    return document


@pytest.mark.parametrize("attack", ATTACKS, ids=list(ATTACKS))
def test_a_malformed_file_is_refused_by_the_reader(attack):
    with pytest.raises(ImportRefused) as refused:
        read(ATTACKS[attack], existing_for(None))
    assert "club data file" in str(refused.value) or "not text" in str(refused.value)


@pytest.mark.parametrize("attack", ATTACKS, ids=list(ATTACKS))
def test_the_import_page_shows_the_forms_error_and_changes_nothing(attack, club, secretary, season):
    before = counts()
    client = Client()
    client.force_login(secretary)
    upload = SimpleUploadedFile("attack.json", ATTACKS[attack], content_type="application/json")
    response = client.post(reverse("club_import", args=[club.slug]), {"file": upload})
    assert response.status_code == 200
    page = response.content.decode()
    assert "problem" in page.lower() and "Confirm" not in page
    assert counts() == before


@pytest.mark.parametrize("attack", ATTACKS, ids=list(ATTACKS))
def test_import_club_exits_non_zero_with_a_message(attack, tmp_path):
    path = tmp_path / "attack.json"
    path.write_bytes(ATTACKS[attack])
    before = counts()
    with pytest.raises(CommandError) as error:
        call_command("import_club", str(path))
    assert "Refused" in str(error.value) and "nothing was written" in str(error.value)
    assert counts() == before


# --- every key of a valid file given the wrong type ---------------------------------------------

WRONG = [None, True, 0, -1, 1.5, "", "x" * 500, [], {}, [[[]]], {"a": {}}, 10**15, "2026-13-45"]


def paths(value: Any, at: tuple = ()) -> Iterator[tuple]:
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*at, index))


def replaced(document: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    changed = copy.deepcopy(document)
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return changed


def rich_sample() -> dict[str, Any]:
    """The sample as version 2, with a rule set written out in full (so its stakes get the wrong
    types too) and a hand with every ruling version 2 records."""
    document = sample()
    document["version"] = 2
    hands = document["nights"][1]["tables"][0]["hands"]
    hands[1].update(revokes=["Cat O'Neill", "Cat O'Neill"], turned_suit=None)
    hands.append(
        {
            "number": 3,
            "contract": "misere",
            "declarer": "Ann Baxter",
            "penalty": "exposed_card",
            "penalty_by": "Dan Whitaker",
        }
    )
    hands.append({"number": 4, "contract": "misdeal"})
    rules = scoring.preset("cents").to_dict()
    document["rule_sets"].append({"name": "Cents", "rules": rules})
    document["seasons"].append(
        {"name": "Spring", "start": "2027-04-01", "end": "2027-06-30", "rule_set": "Cents"}
    )
    return document


def test_every_key_of_a_valid_file_given_every_wrong_type_is_read_or_refused():
    valid = rich_sample()
    assert only_refused(json.dumps(valid)) is not None
    tried = 0
    for path in paths(valid):
        for wrong in WRONG:
            only_refused(json.dumps(replaced(valid, path, wrong)))
            tried += 1
    assert tried > 500


# --- Hypothesis: random damage to a valid file ---------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_values_anywhere_in_a_valid_file(data):
    valid = sample()
    path = data.draw(st.sampled_from(list(paths(valid))))
    only_refused(json.dumps(replaced(valid, path, data.draw(json_values))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(min_value=0), flip=st.integers(min_value=0), byte=st.integers(0, 255))
def test_truncated_or_corrupted_bytes(cut, flip, byte):
    raw = bytearray(json.dumps(sample(), ensure_ascii=False).replace("Eve", "Zoë").encode())
    raw = raw[: cut % (len(raw) + 1)]
    if raw:
        raw[flip % len(raw)] = byte
    only_refused(bytes(raw))


@settings(max_examples=60, deadline=None)
@given(depth=st.integers(min_value=1, max_value=5000), digits=st.integers(1, 6000))
def test_any_nesting_and_any_number_of_digits(depth, digits):
    only_refused(b"[" * depth + b"9" * digits + b"]" * depth)
    only_refused(b'{"format": "solo-whist-club", "version": ' + b"7" * digits + b"}")


# --- the paper-sheet CSV: the same promise -------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"date,table,hand\n" + b"x" * 200_000 + b"\n",  # beyond the csv module's field limit
        b"date,table\x00,hand\n\x00\x00\n",
        b'"unclosed,quote\n' * 3,
        b"\xff\xfe\x00d\x00a\x00t\x00e",
    ],
    ids=["a 200 kB cell", "NUL bytes", "an unclosed quote", "UTF-16"],
)
def test_a_malformed_paper_sheet_is_refused_by_the_reader(raw, club):
    with pytest.raises(ImportRefused):
        read_csv(raw, club)


@settings(
    max_examples=100,
    deadline=None,
    # The club is only read (dry runs write nothing), so one club serves every example.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(raw=st.binary(max_size=300))
def test_any_bytes_as_a_paper_sheet(raw, club):
    try:
        document = read_csv(b"date,season,table,seats,hand,dealer,contract\n" + raw, club)
    except ImportRefused:
        return
    with contextlib.suppress(ImportRefused):
        import_document(document, into=club, dry_run=True)
