"""Settings for the test suite: the production settings with a throwaway key and plain HTTP."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-key-not-secret-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("SOLO_PLAIN_STATIC", "true")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")

from club.settings import *  # noqa: F403
from club.settings import BASE_DIR, CACHE_KEY_PREFIX, CACHE_URL, CACHES, DATABASES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# Tests serve static files from the app folders; there is no collectstatic output to scan.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

if "sqlite" in DATABASES["default"]["ENGINE"]:
    # The browser tests' live server answers from another thread. With SQLite in memory the two
    # threads share one cache and a save that overlaps the live preview fails at once with
    # "database table is locked"; in a file, each connection waits its turn for the lock.
    # SOLO_SQLITE_TEST_NAME lets a second run (the concurrency test's SQLite half, started from a
    # suite on PostgreSQL) use its own file.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("SOLO_SQLITE_TEST_NAME") or str(BASE_DIR / ".test-db.sqlite3")
    }

if CACHE_URL:
    # The suite on a shared Redis (CACHE_URL set): each test process (an xdist worker, another
    # run at the same time) keeps keys of its own, and clears only those (tests/conftest.py).
    CACHES["default"]["KEY_PREFIX"] = f"{CACHE_KEY_PREFIX}-test-{os.getpid()}"

# Tasks run at once in the test's own thread; email goes to django.core.mail.outbox.
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
SITE_URL = "http://testserver"
