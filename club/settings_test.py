"""Settings for the test suite: the production settings with a throwaway key and plain HTTP."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-key-not-secret-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("SOLO_PLAIN_STATIC", "true")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")

from club.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# Tests serve static files from the app folders; there is no collectstatic output to scan.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
