"""The JSON Schemas are the one definition of a club data file's structure: the import refuses
what they refuse, with a message that names the record and the key, and says what is wrong.

The bad files here are not derived from the schemas: each is a valid file with one thing broken
as docs/data-file.md forbids it (a key the contract requires dropped, an unknown key, a value of
another type, a choice that is not one, a number out of range...), so a rule missing from a
schema fails a test. The schemas themselves are checked against their draft's metaschema, and
the compiled test the import runs first (club.interchange.format.schema_compiled) against
jsonschema's
own verdict on many broken files."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from club.interchange import SCHEMA_PATHS, VERSIONS
from club.interchange.format import schema
from club.interchange.format.document import ImportRefused, read
from club.interchange.format.schema_compiled import Unsupported, compile_schema
from tests.interchange.test_bad_input import sample
from tests.interchange.test_malformed import paths, replaced, rich_sample

Path = tuple[str | int, ...]


def v3_sample() -> dict[str, Any]:
    """docs/data-file.md's version-3 keys, each record kind once (or twice where a list is
    numbered), on the version-1 sample: a backup."""
    document = sample()
    document.update(version=3, kind="backup")
    document["club"].update(
        public=True, currency_symbol="£", minor_units=100, points_label="pts",
        confirm_table_hands=False, correction_minutes=30, players_may_claim=False,
        projector_embed_origins="", scorers_add_players=False, first_card_opens_night=False,
        door_check_in=True, odd_tables="5", time_zone="Europe/London",
        door_salt="F31SSM6jGRL1zKexItYcqw",
        grading={"enabled": True, "min_hands": 30, "ladder_by_grade": False},
    )  # fmt: skip
    document["players"][0].update(
        email="ann@example.org", email_results=True, account="viewer", public_grade=True
    )
    document["seasons"][0].update(standings_method="net", min_nights=0, best_nights=None)
    night = document["nights"][0]
    night["tables"][0]["hands"][2]["awaiting_confirmation"] = True
    night.update(
        counts_in_standings=True,
        closed_at="2026-11-20T22:41:07.123456Z",
        closed_by="secretary",
        publish_after="2026-11-20T23:11:07.123456Z",
        published_at="2026-11-20T23:11:09Z",
        tournament=None,
        publications=[
            {"number": 1, "at": "2026-11-20T23:11:09Z", "by": None, "deliveries": [
                {"player": "Ann Baxter", "email": "ann@example.org", "status": "sent",
                 "attempts": 1, "error": "", "next_attempt_at": None,
                 "sent_at": "2026-11-20T23:11:10Z"}]},
        ],
        debts=[
            {"number": 1, "payer": "Bob Mortimer", "payee": "Ann Baxter", "amount": 92,
             "created_at": "2026-11-20T22:41:07.2Z"},
            {"number": 2, "payer": "Cat O'Neill", "payee": "Dan Whitaker", "amount": 10,
             "created_at": "2026-11-20T22:41:07.2Z"},
        ],
        settlements=[
            {"debt": 1, "kind": "paid", "amount": 46, "at": "2026-11-21T10:00:00Z",
             "by": "secretary", "note": "the rest next week", "via": "", "netting": None,
             "undone_at": None, "undone_by": None},
            {"debt": 2, "kind": "netted", "amount": 10, "at": "2026-11-28T21:00:00Z",
             "by": "secretary", "note": "", "via": "", "netting": 1},
        ],
    )  # fmt: skip
    tournament_night = document["nights"][1]
    tournament_night["title"] = "Christmas Drive"
    tournament_night["tables"][0]["round"] = 1
    tournament_night["tournament"] = {
        "name": "Christmas Drive", "rounds": 2, "hands_per_round": 2, "scoring_method": "amounts",
        "public": False, "seed": 3, "current_round": 1, "status": "running",
        "extra_hands_allowed": False, "planned_max_meetings": None, "director": "secretary",
        "entries": [{"player": name, "joined_round": 1, "withdrawn_after_round": None}
                    for name in document["nights"][1]["tables"][0]["seats"]],
    }  # fmt: skip
    document.update(
        accounts=[
            {"username": "secretary", "email": "secretary@example.org", "role": "secretary"},
            {"username": "viewer", "email": "viewer@example.org", "role": "viewer"},
            {"username": "guest", "email": "guest@example.org", "role": None},
        ],
        invitations=[
            {"username": "guest", "role": "scorer", "invited_by": "secretary",
             "created_at": "2026-11-21T09:00:00Z"},
        ],
        nettings=[{"number": 1, "at": "2026-11-28T21:00:00Z", "by": "secretary", "amount": 10}],
        arrivals=[{"date": "2026-11-27", "player": "Ann Baxter",
                   "arrived_at": "2026-11-27T19:31:00Z", "via": "door"}],
        table_cards=[
            {"number": 1, "label": "Table 1", "issued_at": "2026-11-01T18:00:00Z",
             "issued_by": "secretary", "revoked_at": None, "revoked_by": None,
             "salt": "r2Dq", "token_hash": "9f86d081" * 8},
        ],
        audit=[
            {"at": "2026-11-20T22:41:07.1Z", "action": "close", "subject": "Club night 20 Nov 2026",
             "night": {"season": "Winter 2026", "date": "2026-11-20", "title": ""},
             "night_label": "Club night 20 Nov 2026", "user": "secretary", "device": "",
             "link_label": "", "before": None, "after": {"status": "closed"}},
        ],
    )  # fmt: skip
    return document


SAMPLES = {1: sample, 2: rich_sample, 3: v3_sample}

# What docs/data-file.md says each record must give.
REQUIRED = {
    (): ("club",),  # and the format and version (test_bad_input)
    ("club",): ("name", "slug", "unit"),
    ("club", "grading"): (),
    ("players", "*"): ("name",),
    ("rule_sets", "*"): ("name",),
    ("seasons", "*"): ("name", "start", "end", "rule_set"),
    ("nights", "*"): ("season", "date", "tables"),
    ("nights", "*", "tables", "*"): ("number", "seats"),
    ("nights", "*", "tables", "*", "hands", "*"): ("number", "contract"),
    ("nights", "*", "tournament"): ("name", "rounds", "hands_per_round", "status", "current_round"),
    ("nights", "*", "tournament", "entries", "*"): ("player",),
    ("nights", "*", "publications", "*"): ("number", "at"),
    ("nights", "*", "publications", "*", "deliveries", "*"): ("player", "status"),
    ("nights", "*", "debts", "*"): ("number", "payer", "payee", "amount", "created_at"),
    ("nights", "*", "settlements", "*"): ("debt", "kind", "amount", "at"),
    ("accounts", "*"): ("username",),
    ("invitations", "*"): ("username", "role", "created_at"),
    ("nettings", "*"): ("number", "at", "amount"),
    ("arrivals", "*"): ("date", "player", "arrived_at"),
    ("table_cards", "*"): ("number", "issued_at", "salt", "token_hash"),
    ("audit", "*"): ("at", "action", "subject"),
    ("audit", "*", "night"): ("season", "date", "title"),
}
# The keys whose value may be anything: an audit event's before and after (as the app recorded
# them), and when the file was written (ignored on import).
ANY_VALUE = {"before", "after", "exported_at"}


def shape(path: Path) -> Path:
    return tuple("*" if isinstance(step, int) else step for step in path)


def at(document: Any, path: Path) -> Any:
    for step in path:
        document = document[step]
    return document


def problems_of(document: Any) -> list[str]:
    with pytest.raises(ImportRefused) as refused:
        read(json.dumps(document))
    return [str(p) for p in refused.value.problems]


def records(document: dict[str, Any]) -> Iterator[Path]:
    """The path of every record (object) the contract describes, in the sample."""
    for path in paths(document):
        if shape(path) in REQUIRED and isinstance(at(document, path), dict):
            yield path


def leaves(document: dict[str, Any]) -> Iterator[Path]:
    """Every value in the sample but the records themselves (and the format and version, which
    say what the file is: test_bad_input)."""
    for path in paths(document):
        if not path or shape(path) in REQUIRED or path in (("format",), ("version",)):
            continue
        if set(map(str, path)) & ANY_VALUE:
            continue
        yield path


def field_key(path: Path) -> str:
    """The key of its record that a value is under ('amounts' for an amount, 'seats' for a
    seat), which the problem names."""
    for end in range(len(path) - 1, -1, -1):
        if shape(path[:end]) in REQUIRED:
            return str(path[end])
    raise AssertionError(path)


def test_the_samples_read():
    for version, make in SAMPLES.items():
        assert read(json.dumps(make())).club.name, version


# --- the schemas themselves -------------------------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_each_schema_is_valid_under_the_draft_it_declares(version):
    document_schema = json.loads(SCHEMA_PATHS[version].read_text())
    assert document_schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    declared = jsonschema.validators.validator_for(document_schema)
    assert declared is jsonschema.Draft202012Validator
    declared.check_schema(document_schema)  # raises SchemaError, saying where
    assert document_schema["properties"]["version"] == {"const": version}


@pytest.mark.parametrize("version", VERSIONS)
def test_each_schema_compiles_whole(version):
    """Every keyword the schemas use is one the compiled test knows (an unknown one would make
    it refuse to compile, never skip the rule)."""
    compile_schema(schema.schema(version), schema.FORMATS)
    with pytest.raises(Unsupported):
        compile_schema({"type": "object", "dependentRequired": {"a": ["b"]}}, schema.FORMATS)


def test_the_validator_is_made_once_a_version():
    assert schema.validator(3) is schema.validator(3)
    assert schema.validator(1) is not schema.validator(3)


# --- every rule of the contract is the schema's ---------------------------------------------------


def cases() -> Iterator[tuple[int, str, Path]]:
    for version, make in SAMPLES.items():
        document = make()
        for path in records(document):
            for key in REQUIRED[shape(path)]:
                yield version, "drop", (*path, key)
            yield version, "unknown", (*path, "colour")
        for path in leaves(document):
            yield version, "type", path


def label(case: tuple[int, str, Path]) -> str:
    version, change, path = case
    return f"v{version}-{change}-{'.'.join(map(str, path))}"


CASES = list(cases())


@pytest.mark.parametrize("case", CASES, ids=[label(c) for c in CASES])
def test_a_broken_file_is_refused_naming_the_key(case):
    """A required key dropped, an unknown key, a value of another JSON type: refused, and the
    problem names the key (and says where, unless it is the file's own key)."""
    version, change, path = case
    document = SAMPLES[version]()
    key = field_key(path)
    if change == "drop":
        del at(document, path[:-1])[path[-1]]
        expected = f"the key '{key}' is missing"
    elif change == "unknown":
        at(document, path[:-1])["colour"] = "blue"
        expected = "unknown key 'colour'"
    else:
        value = at(document, path)
        other = [] if isinstance(value, str) else "a word"
        document = replaced(document, path, other)
        expected = f"'{key}"
    problems = problems_of(document)
    assert any(expected in p for p in problems), problems
    if len(path) > 1 and path[0] != "club":
        assert all(not p.startswith("file:") for p in problems if expected in p), problems


CHOICES: list[tuple[int, Path]] = [
    (1, ("club", "unit")),
    (1, ("rule_sets", 0, "preset")),
    (1, ("nights", 0, "tables", 0, "hands", 0, "contract")),
    (2, ("nights", 1, "tables", 0, "hands", 2, "penalty")),
    (2, ("nights", 1, "tables", 0, "hands", 1, "turned_suit")),
    (3, ("nights", 0, "tables", 0, "hands", 0, "trump")),
    (3, ("kind",)),
    (3, ("club", "odd_tables")),
    (3, ("seasons", 0, "standings_method")),
    (3, ("nights", 1, "tournament", "status")),
    (3, ("nights", 1, "tournament", "scoring_method")),
    (3, ("nights", 0, "publications", 0, "deliveries", 0, "status")),
    (3, ("nights", 0, "settlements", 0, "kind")),
    (3, ("accounts", 0, "role")),
    (3, ("invitations", 0, "role")),
    (3, ("arrivals", 0, "via")),
    (3, ("audit", 0, "action")),
]


@pytest.mark.parametrize(
    ("version", "path"), CHOICES, ids=[".".join(map(str, c[1])) for c in CHOICES]
)
def test_a_choice_that_is_not_one_is_refused(version, path):
    document = replaced(SAMPLES[version](), path, "guineas")
    problems = problems_of(document)
    assert any(f"'{path[-1]}' \"guineas\" is not one of" in p for p in problems), problems


BOUNDS: list[tuple[int, Path, Any, str]] = [
    # (version, path, value, what the problem says)
    (1, ("nights", 0, "tables", 0, "hands", 0, "tricks"), 14, "a hand has 13 tricks (0 to 13)"),
    (1, ("nights", 0, "tables", 0, "hands", 0, "tricks"), -1, "a hand has 13 tricks (0 to 13)"),
    (1, ("nights", 0, "tables", 0, "hands", 0, "number"), 0, "'number' is 0: it must be from 1"),
    (1, ("nights", 0, "tables", 0, "number"), 32768, "'number' is 32768: it must be from 1 to"),
    (1, ("nights", 0, "tables", 0, "round"), 31, "'round' is 31: it must be from 1 to 30"),
    (1, ("nights", 0, "tables", 0, "seats"), ["Ann Baxter", "Bob Mortimer"], "3, 4 or 5 players"),
    (1, ("nights", 0, "tables", 0, "seats"), ["Ann Baxter"] * 4, 'names "Ann Baxter" twice'),
    (1, ("nights", 0, "tables", 0, "hands", 0, "notes"), "x" * 201, "longer than 200"),
    (1, ("players", 0, "name"), "x" * 61, "'name' is longer than 60 characters"),
    (1, ("players", 0, "name"), "   ", "'name' cannot be empty"),
    (1, ("club", "name"), "", "'name' cannot be empty"),
    (1, ("club", "slug"), "crown and anchor", "may hold only letters, digits, - and _"),
    (1, ("seasons", 0, "start"), "2026-02-30", "must be a date written YYYY-MM-DD"),
    (1, ("nights", 0, "date"), "20/11/2026", "must be a date written YYYY-MM-DD"),
    (3, ("nights", 0, "published_at"), "yesterday", "must be a moment written"),
    (2, ("nights", 1, "tables", 0, "hands", 1, "revokes"), ["Ann Baxter"] * 14, "at most 13"),
    (3, ("club", "minor_units"), 0, "'minor_units' is 0: it must be from 1 to 1000000"),
    (3, ("club", "grading", "min_hands"), 0, "'min_hands' is 0"),
    (3, ("club", "correction_minutes"), -1, "'correction_minutes' is -1"),
    (3, ("players", 0, "email"), "ann at example.org", "is not an email address"),
    (3, ("accounts", 0, "username"), "the secretary", "is not a user name"),
    (3, ("nights", 0, "debts", 0, "amount"), 0, "'amount' is 0: it must be from 1"),
    (3, ("nights", 0, "closed_at"), "2026-11-20T22:41:07", "(with its offset)"),
    (3, ("nights", 1, "tournament", "rounds"), 31, "'rounds' is 31"),
    (3, ("table_cards", 0, "token_hash"), "abc", "64 hex digits"),
    (3, ("arrivals", 0, "date"), "2026-11-31", "must be a date written YYYY-MM-DD"),
]


@pytest.mark.parametrize(("version", "path", "value", "said"), BOUNDS)
def test_a_value_out_of_its_range_or_form_is_refused(version, path, value, said):
    problems = problems_of(replaced(SAMPLES[version](), path, value))
    assert any(said in p for p in problems), problems


# Keys the import has always read as left out when null (or "" for the two choices), so files
# written that way still read: (version, path).
LEFT_OUT = [
    (1, ("exported_at",), "yesterday"),
    (1, ("nights", 1, "title"), None),
    (1, ("nights", 1, "tables", 0, "hands"), None),
    (1, ("nights", 1, "tables", 0, "hands", 0, "dealer"), None),
    (1, ("nights", 1, "tables", 0, "hands", 0, "notes"), None),
    (1, ("rule_sets", 0, "rules"), None),
    (2, ("nights", 1, "tables", 0, "hands", 0, "revokes"), None),
    (2, ("nights", 1, "tables", 0, "hands", 0, "wrong_cards"), None),
    (2, ("nights", 1, "tables", 0, "hands", 0, "penalty"), ""),
    (2, ("nights", 1, "tables", 0, "hands", 0, "turned_suit"), ""),
    (2, ("rule_sets", 1, "preset"), None),
    (3, ("arrivals",), None),
    (3, ("nights", 1, "debts"), None),
    (3, ("nights", 0, "publications", 0, "deliveries", 0, "error"), None),
    (3, ("nights", 0, "settlements", 0, "note"), None),
    (3, ("table_cards", 0, "label"), None),
    (3, ("audit", 0, "device"), None),
    (3, ("club", "points_label"), None),
    (3, ("players", 1, "email"), None),
]


@pytest.mark.parametrize(("version", "path", "value"), LEFT_OUT)
def test_a_key_the_import_always_read_as_left_out_still_is(version, path, value):
    read(json.dumps(replaced(SAMPLES[version](), path, value)))


def test_null_is_not_a_rule_set_of_its_own():
    document = sample()
    document["rule_sets"][0] = {"name": "Six, twelve and eighteen", "preset": None, "rules": None}
    assert problems_of(document) == [
        "rule set 'Six, twelve and eighteen': give either 'preset' or 'rules'"
    ]


def test_one_revoke_or_every_revoke_not_both():
    document = rich_sample()
    hand = document["nights"][1]["tables"][0]["hands"][1]
    hand["revoke_by"] = None  # null beside the list: left out
    read(json.dumps(document))
    hand["revoke_by"] = "Cat O'Neill"
    assert problems_of(document) == [
        "night 2026-11-27, table 1, hand 2: give 'revoke_by' (one revoke) or 'revokes' (every "
        "one), not both"
    ]


def test_version_1_refuses_what_later_versions_added():
    document = sample()
    document["nights"][0]["tables"][0]["hands"][0]["revokes"] = []
    document["nights"][0]["tables"][0]["hands"][1]["contract"] = "misdeal"
    rules = scoring.preset("standard").to_dict()
    for key in ("redeal_by", "record_turned_suit", "abundance_in_turned_suit"):
        rules.pop(key, None)
    document["rule_sets"].append({"name": "Fives", "rules": rules | {"stake_unit": 5}})
    problems = problems_of(document)
    assert problems[0] == (
        "rule set 'Fives': 'rules' holds 'stake_unit', which version 1 does not have: write the "
        "file as version 2"
    )
    assert problems[1].startswith(
        "night 2026-11-20, table 1, hand 1: unknown key 'revokes' (version 1 has 'number', "
    )
    assert problems[2].startswith("night 2026-11-20, table 1, hand 2: 'contract' \"misdeal\"")


def test_the_rules_structure_is_the_schemas():
    document = rich_sample()
    rules = document["rule_sets"][1]["rules"]
    rules["stakes"]["solo"]["base"] = "six"
    del rules["stakes"]["misere"]
    assert problems_of(document) == [
        "rule set 'Cents': 'rules.stakes' is missing the key 'misere'",
        "rule set 'Cents': 'rules.stakes.solo.base' must be a whole number, not \"six\"",
    ]


def test_the_messages_say_where_and_what():
    document = v3_sample()
    hand = document["nights"][0]["tables"][0]["hands"][1]
    hand["tricks"] = 5.0  # a whole number has no decimal point
    hand["declarer"] = 7
    document["nights"][0]["debts"][1]["payee"] = "Nobody"  # a name: the reader's to check
    document["nights"][0]["settlements"][0]["at"] = "tomorrow"
    document["players"][4]["name"] = ["Eve"]
    assert problems_of(document) == [
        "player 5: 'name' must be text, not [\"Eve\"]",
        "night 2026-11-20, table 1, hand 2: 'declarer' must be text or null, not 7",
        "night 2026-11-20, table 1, hand 2: 'tricks' must be a whole number or null, not 5.0",
        "night 2026-11-20, debt 2: 'payee' 'Nobody' is not one of the file's players",
        "night 2026-11-20, settlement 1: 'at' must be a moment written 2026-11-20T21:40:00Z "
        '(with its offset), not "tomorrow"',
    ]


def test_a_list_item_and_a_record_that_is_not_an_object():
    document = v3_sample()
    document["nights"][0]["tables"][0]["hands"][0]["revokes"] = ["Ann Baxter", 5]
    document["nights"][1]["tables"][0]["hands"][1] = None
    assert problems_of(document) == [
        "night 2026-11-20, table 1, hand 1: 'revokes' item 2 must be text, not 5",
        'night 2026-11-27 "Christmas Drive", round 1, table 1, hand 2: must be an object ({...})',
    ]


def test_a_paper_sheets_structural_problem_names_its_row():
    document = sample()
    document["nights"][0]["tables"][0]["hands"][1]["tricks"] = 20
    rows = {(0,): 2, (0, 0): 2, (0, 0, 0): 2, (0, 0, 1): 3, (0, 0, 2): 4}
    with pytest.raises(ImportRefused) as refused:
        read(document, rows=rows)
    assert [str(p) for p in refused.value.problems] == [
        "row 3 (night 2026-11-20, table 1, hand 2): 'tricks' is 20: a hand has 13 tricks (0 to 13)"
    ]


# --- the compiled test and jsonschema agree ---------------------------------------------------


def verdicts(document: Any, version: int) -> tuple[bool, bool]:
    return (
        schema.passes(document, version),
        not any(True for _ in schema.validator(version).iter_errors(document)),
    )


def test_the_compiled_test_agrees_with_jsonschema_on_every_broken_key():
    tried = 0
    for version, make in SAMPLES.items():
        valid = make()
        assert verdicts(valid, version) == (True, True)
        for path in paths(valid):
            for wrong in (None, True, 0, 1.0, -1, "", " ", "x" * 400, [], {}, ["x", "x"], 10**9):
                document = replaced(valid, path, wrong)
                passes, jsonschema_passes = verdicts(document, version)
                assert passes == jsonschema_passes, (version, path, wrong)
                tried += 1
    assert tried > 3000


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_compiled_test_agrees_with_jsonschema_on_random_damage(data):
    version = data.draw(st.sampled_from(VERSIONS))
    valid = SAMPLES[version]()
    path = data.draw(st.sampled_from(list(paths(valid))))
    document = replaced(valid, path, data.draw(json_values))
    if isinstance(document, dict) and data.draw(st.booleans()):
        document = copy.deepcopy(document)
        document[data.draw(st.text(max_size=6))] = data.draw(json_values)
    passes, jsonschema_passes = verdicts(document, version)
    assert passes == jsonschema_passes
