"""The log-in backends.

The lockout backend is django-axes' own, except that a call with no request passes through to
the next backend instead of failing. Every log-in over HTTP (the log-in form, the admin's) gives
its request and is checked; only code that calls `authenticate()` itself without one (Django's
test client `login()`, a management command, a shell) has no address or user agent to lock out
and is left to the password check alone."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from club.core.prepared import PreparedRead


class LockoutBackend(AxesStandaloneBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


# The signed-in user, read at every request a member makes: compiled once (club.core.prepared).
_USER = PreparedRead(lambda pk: User.objects.filter(pk=pk), [int])


class MemberBackend(ModelBackend):
    """Django's ModelBackend, with two changes:

    - the signed-in user, read at every request of a member, is a prepared read;
    - credentials that fail here stop the check. ModelBackend stays listed after this backend
      only to read sessions signed in before this backend was (their session names it); it
      would otherwise hash a wrong password a second time."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        user = super().authenticate(request, username, password, **kwargs)
        if user is None and username is not None and password is not None:
            raise PermissionDenied("The user name or the password is wrong.")
        return user

    def get_user(self, user_id: int) -> User | None:
        found = _USER.rows(user_id) if type(user_id) is int else []
        if not found:
            return None
        return found[0] if self.user_can_authenticate(found[0]) else None
