"""Where an uploaded file waits between its preview and the secretary's confirmation.

The file is stored under its SHA-256 in a private directory (IMPORT_STAGING_DIR, default a
`solo-whist-imports` directory in the system's temporary directory) and the page carries a signed
token naming that digest, the club, the secretary and the kind of file. On confirmation the token
must be genuine, recent (an hour), for the same club and secretary, and the file must still hash to
the digest: nothing the browser sends can point at another file or change the one previewed.
Files are bounded by the upload limit and removed after the import or once they are a day old.
With several app servers, IMPORT_STAGING_DIR must be a directory they share.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core import signing

from club.interchange.document import check_size

SALT = "club.interchange.staging"
MAX_AGE = 60 * 60  # seconds a preview stays valid
KEEP = 24 * 60 * 60  # seconds an abandoned upload is kept
DIGEST = re.compile(r"^[0-9a-f]{64}$")


class StagingError(Exception):
    """The staged upload cannot be used; the message tells the secretary what to do."""


@dataclass(frozen=True)
class Staged:
    raw: bytes
    kind: str  # "json" or "csv"
    name: str
    digest: str


def directory() -> Path:
    configured = getattr(settings, "IMPORT_STAGING_DIR", None)
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "solo-whist-imports"


def _path(digest: str) -> Path:
    if not DIGEST.match(digest):
        raise StagingError("This upload is not valid: upload the file again.")
    return directory() / f"{digest}.upload"


def stage(raw: bytes, *, club_id: int, user_id: int, kind: str, name: str) -> str:
    """Keep the file; returns the token the confirmation posts back."""
    check_size(len(raw))
    digest = hashlib.sha256(raw).hexdigest()
    folder = directory()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    prune()
    path = _path(digest)
    if not path.exists():
        fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
        os.replace(temporary, path)
    else:
        path.touch()
    payload = {"sha256": digest, "club": club_id, "user": user_id, "kind": kind, "name": name}
    return signing.dumps(payload, salt=SALT)


def load(token: str, *, club_id: int, user_id: int) -> Staged:
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise StagingError("The preview is more than an hour old: upload the file again.") from None
    except signing.BadSignature:
        raise StagingError("This upload is not valid: upload the file again.") from None
    if data.get("club") != club_id or data.get("user") != user_id:
        raise StagingError("This upload belongs to someone else: upload the file again.")
    path = _path(str(data.get("sha256", "")))
    try:
        raw = path.read_bytes()
    except OSError:
        raise StagingError("The uploaded file is no longer here: upload it again.") from None
    if hashlib.sha256(raw).hexdigest() != data["sha256"]:
        raise StagingError("The uploaded file has changed since the preview: upload it again.")
    return Staged(raw, str(data.get("kind", "json")), str(data.get("name", "")), data["sha256"])


def discard(digest: str) -> None:
    _path(digest).unlink(missing_ok=True)


def prune(now: float | None = None) -> None:
    """Remove uploads nobody confirmed within a day."""
    now = time.time() if now is None else now
    folder = directory()
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        try:
            if now - path.stat().st_mtime > KEEP:
                path.unlink()
        except OSError:
            continue
