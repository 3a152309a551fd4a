"""Live pages told of a change when it happens: one small message to a push engine (nginx with
the nchan module, docs/operators.md), which holds the phones' and boards' EventSource
connections.

Each open night and each table has a channel, named by an HMAC of the site's SECRET_KEY: a
name cannot be guessed, and a page is given its channel only once its viewer was let in (the
table's link or card, a board or night page its viewer may see). A change publishes one
message to each channel it touches once its transaction commits; the page then asks for its
part as its poll did. Publishing is best effort: a short timeout, a failure logged and the
write kept (the pages' fallback poll sees the change). `LIVE_PUSH_URL` empty (bin/demo, the
tests) publishes nothing, gives pages no channel to subscribe to, and they poll as before.
"""

from __future__ import annotations

import http.client
import json
import logging
import time
import urllib.request
from collections.abc import Iterable
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils.crypto import salted_hmac

log = logging.getLogger("club.lib.live_push")

_SALT = "club.lib.live_push.channel"


def channel(kind: str, pk: int) -> str:
    """`table` or `night` and its id: 64 hex characters only the server can make."""
    return salted_hmac(_SALT, f"{kind}:{pk}", algorithm="sha256").hexdigest()


def table_channel(table_id: int) -> str:
    return channel("table", table_id)


def night_channel(night_id: int) -> str:
    return channel("night", night_id)


def enabled() -> bool:
    return bool(getattr(settings, "LIVE_PUSH_URL", ""))


def subscriber_url(name: str) -> str:
    """Where a page subscribes (the engine's public location), or "" without push."""
    if not enabled():
        return ""
    return f"{settings.LIVE_SUBSCRIBE_PATH}{name}"


def publish(name: str) -> bool:
    """POST one message to the engine's publisher location; True when it took it. Never raises:
    a page that misses the message sees the change at its next poll."""
    base = getattr(settings, "LIVE_PUSH_URL", "")
    if not base:
        return False
    body = json.dumps({"at": round(time.time() * 1000)}).encode()
    request = urllib.request.Request(
        f"{base}{name}",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "text/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=settings.LIVE_PUSH_TIMEOUT) as response:
            response.read()
        return True
    except (OSError, ValueError, http.client.HTTPException) as error:  # URLError, timeouts
        # Not the URL: it holds the channel's name.
        log.warning("live push not delivered (%s): pages see the change at their next poll", error)
        return False


def _publish_all(names: tuple[str, ...]) -> None:
    for name in names:
        publish(name)


def changed_on_commit(*, night_id: int | None = None, table_ids: Iterable[int] = ()) -> None:
    """Once the write commits, one message to the night's channel and to each table's."""
    if not enabled():
        return
    names = [table_channel(pk) for pk in table_ids]
    if night_id is not None:
        names.append(night_channel(night_id))
    if names:
        transaction.on_commit(partial(_publish_all, tuple(names)))
