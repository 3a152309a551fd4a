"""The club data file, `solo-whist-club` version 3 (docs/data-file.md; versions 1 and 2 still
read as they always did): export, import, paper sheets typed in as CSV, and the JSON Schemas of
the format.

- `schema-v1.json`, `schema-v2.json`, `schema-v3.json`: the JSON Schemas (draft 2020-12), served
  at /schema/solo-whist-club-v1.json, -v2.json and -v3.json: the one definition of a file's
  structure, which the import applies (`schema`; `schema_compiled`, its quick verdict on a valid
  file; `schema_problems`, its errors in words, and the names of a file's records);
- `document`: reading a file into checked, plain data (no database), every problem with where it
  is; `reading`, what its parts share; `night_read`, the nights, tables and hands;
- `record_read`, `record_data`, `record_export`, `record_write`: version 3's rest of the club's
  record (money owed and its payments, publications, members, invitations, table cards,
  arrivals, settings, the audit trail): read and checked, as plain data, exported, written;
- `export`: a club, season or night as the document;
- `importer`: writing a checked document into a new or an existing club, all or nothing, every hand
  scored by the same service code as the table page (`bulk_insert`, its many rows at once;
  `import_summary`, what it added);
- `csv_sheets`: the paper-sheet layout, turned into the same document;
- `league_read` (format), `league_export`, `league_import` (services): the league file, a
  league's whole record with its match nights as a club data file inside it;
- `staging`: an uploaded file kept between its preview and its confirmation; `backups`: the
  nightly backup and its check.
"""

from __future__ import annotations

from pathlib import Path

FORMAT = "solo-whist-club"
VERSION = 3  # what export writes
VERSIONS = (1, 2, 3)  # what import reads
# Refused before parsing: a file this size or larger is not a club's record.
MAX_BYTES = 50 * 1024 * 1024
MAX_MB = MAX_BYTES // (1024 * 1024)
SCHEMA_PATHS = {v: Path(__file__).with_name(f"schema-v{v}.json") for v in VERSIONS}
SCHEMA_PATH = SCHEMA_PATHS[VERSION]
# What a version-3 file is: the whole record (a backup), or one that can be shared (no emails,
# no token hashes, no audit trail).
BACKUP = "backup"
SHAREABLE = "shareable"
KINDS = (BACKUP, SHAREABLE)
# A league's whole record, for its organiser to move it between servers (docs/data-file.md, "The
# league file"): a document of its own, whose match nights are a club data file inside it.
LEAGUE_FORMAT = "solo-whist-league"
LEAGUE_VERSION = 1
LEAGUE_SCHEMA_PATH = Path(__file__).with_name(f"schema-league-v{LEAGUE_VERSION}.json")
