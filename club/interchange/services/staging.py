"""Where an uploaded file waits between its preview and the secretary's confirmation.

The file is kept in the database under its SHA-256 (club.models.StagedUpload), so that with
several web nodes the confirmation may reach another node than the preview did, and the page
carries a signed token naming that digest, the club, the secretary and the kind of file. On
confirmation the token must be genuine, recent (an hour), for the same club and secretary, and
the stored file must still hash to the digest: nothing the browser sends can point at another
file or change the one previewed. Files are bounded by the upload limit and removed after the
import or once they are a day old.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import time
from dataclasses import dataclass

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from club.interchange.format.document import check_size
from club.interchange.models import StagedUpload

SALT = "club.interchange.services.staging"
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


def _digest(value: object) -> str:
    digest = str(value or "")
    if not DIGEST.match(digest):
        raise StagingError("This upload is not valid: upload the file again.")
    return digest


def stage(raw: bytes, *, club_id: int, user_id: int, kind: str, name: str) -> str:
    """Keep the file; returns the token the confirmation posts back."""
    check_size(len(raw))
    digest = hashlib.sha256(raw).hexdigest()
    prune()
    now = timezone.now()
    # The same file previewed again (or by two secretaries at once) is stored once.
    if not StagedUpload.objects.filter(digest=digest).update(staged_at=now):
        try:
            with transaction.atomic():
                StagedUpload.objects.create(digest=digest, raw=raw, staged_at=now)
        except IntegrityError:
            StagedUpload.objects.filter(digest=digest).update(staged_at=now)
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
    digest = _digest(data.get("sha256"))
    kept = StagedUpload.objects.filter(digest=digest).values_list("raw", flat=True).first()
    if kept is None:
        raise StagingError("The uploaded file is no longer here: upload it again.")
    raw = bytes(kept)
    if hashlib.sha256(raw).hexdigest() != digest:
        raise StagingError("The uploaded file has changed since the preview: upload it again.")
    return Staged(raw, str(data.get("kind", "json")), str(data.get("name", "")), digest)


def discard(digest: str) -> None:
    StagedUpload.objects.filter(digest=_digest(digest)).delete()


def prune(now: float | None = None) -> None:
    """Remove uploads nobody confirmed within a day."""
    now = time.time() if now is None else now
    cutoff = dt.datetime.fromtimestamp(now - KEEP, dt.UTC)
    StagedUpload.objects.filter(staged_at__lt=cutoff).delete()
