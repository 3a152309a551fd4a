"""The site's own address, for links that leave it (emails, QR codes): SITE_URL and a path."""

from __future__ import annotations

from django.conf import settings


def absolute(path: str) -> str:
    return settings.SITE_URL + path
