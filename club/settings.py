"""Settings read from the environment (docs/operators.md lists every one with its default).

DEBUG defaults to off; `SECRET_KEY` must be set when DEBUG is off. `DATABASE_URL` picks PostgreSQL
(psycopg 3); without it the app runs on the embedded SQLite file beside manage.py. `CACHE_URL`
picks Redis for the cache that several web nodes share; without it each process has its own.
"""

import datetime as dt
import os
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
import dj_email_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY in the environment (or DEBUG=true to develop).")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production-0123456789abcdef"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
if DEBUG and not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "django_tables2",
    "template_partials",
    # The project's history: the migrations of the days when the club was one app (label "club"),
    # which still make a new database's tables before each app below adopts its own.
    "club",
    # The apps by domain, each depending only on those above it in this list (docs/architecture.md).
    "club.clubs",
    "club.play",
    "club.grades",
    "club.money",
    "club.tournaments",
    "club.players",
    "club.leagues",
    "club.interchange",
    "club.demo",
    "club.help",
    "club.operations",
    "django_tasks",
    "django_tasks_db",
    "axes",
]

MIDDLEWARE = [
    # First: times the whole request and gives it the id its log lines carry.
    "club.operations.logs.request_log.RequestLogMiddleware",
    # Requests by route and status, the save's latency, for /metrics
    # (club/operations/services/metrics.py).
    "club.operations.services.metrics.MetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # No database: 503 with Retry-After and a page saying the record is safe
    # (club/operations/views/outage.py).
    "club.operations.views.outage.DatabaseOutageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Every request starts on the server's zone; the club's is switched on where the club loads.
    "club.lib.zones.ClubTimeZoneMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
    # A closed club's page, to its members only: closed on, deleted after (410); anyone else
    # gets the 404 of a club that never was (club/clubs/views/closed_club.py).
    "club.clubs.views.closed_club.ClosedClubMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First, so that a locked-out user or address is refused before the password is checked.
    "club.clubs.services.auth.LockoutBackend",
    # The password check, and the signed-in user read once a request, compiled once.
    "club.clubs.services.auth.MemberBackend",
    # Only for the sessions signed in before MemberBackend was (each names its backend).
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "club.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "club.clubs.views.signup.signup_context",
            ],
        },
    },
]

WSGI_APPLICATION = "club.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Many tables save at once on a club night. SQLite has one writer at a time: WAL lets readers
    # go on while one writes; BEGIN IMMEDIATE takes the write lock when a transaction starts, so
    # a writer waits its turn (up to `timeout` seconds) instead of failing at once with "database
    # is locked" when a read-then-write transaction cannot upgrade its lock; NORMAL sync is safe
    # under WAL (a power cut may lose the last commits, never corrupt the file).
    # Writers of one process queue in turn before SQLite's lock (club/core/sqlite_backend/base.py).
    DATABASES["default"]["ENGINE"] = "club.core.sqlite_backend"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "timeout": int(os.environ.get("SQLITE_TIMEOUT", "30")),
            "transaction_mode": "IMMEDIATE",
        }
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
# The server's clock (UTC); each club's dates and times are on its own zone (club/lib/zones.py).
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or env_bool("SOLO_PLAIN_STATIC")
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Only the app's own scripts and styles: no inline <script>, <style>, style="..." or on*=
# anywhere (htmx's own indicator styles are switched off in base.html's htmx-config meta).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}
# Django's defaults, spelt out because the tests and the README promise them.
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True

# Log-in guessing: lock out a user name after AXES_FAILURE_LIMIT failures, and an address too
# (whatever names it tries), for AXES_COOLOFF_MINUTES. `manage.py axes_reset` unlocks everyone;
# a secretary unlocks a member from the club's Members page.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = dt.timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "club.clubs.views.lockouts.lockout_response"
# Failed log-ins are rows in the database, so a lock-out made on one web node holds on all.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_RESET_ON_SUCCESS = True
# The address is the connection's own unless TRUSTED_PROXY_COUNT says how many proxies (each
# appending to X-Forwarded-For) stand in front: then the one the nearest proxy saw, which a
# client cannot forge by sending its own X-Forwarded-For.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT:
    AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXY_COUNT
    AXES_IPWARE_PROXY_ORDER = "right-most"
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # A load balancer probes each node over plain HTTP: answer it rather than redirect it.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]  # and Prometheus scrapes each node
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Sign-up from the home page: `open` (anyone makes an account and a club, confirming their email
# address) or `closed` (the operator makes clubs with `manage.py create_club`).
SIGNUP = os.environ.get("SIGNUP", "open").strip().lower()
if SIGNUP not in {"open", "closed"}:
    raise ImproperlyConfigured("SIGNUP must be open or closed.")

# State that every web node must share. Sessions, log-in lock-outs (above) and the kept final
# sheets are rows in the database. CACHE_URL (redis://host:6379/0, rediss://... with TLS,
# unix:///path.sock?db=0) puts Django's cache in Redis: the table links' write limit, cached score
# cards, anything a view keeps for a while. Without it, each process has a local-memory cache of
# its own: right for one server process (bin/demo, the tests), not for several nodes.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "solo")


def cache_settings(url: str, key_prefix: str) -> dict[str, dict[str, object]]:
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in {"redis", "rediss", "unix"}:
        # Only the scheme in the message: the URL may hold Redis's password.
        raise ImproperlyConfigured(
            f"CACHE_URL must be a redis://, rediss:// or unix:// URL (not {scheme or 'this'}://)."
        )
    return {
        "default": {
            # django-redis: a Redis that stops answering is a miss (a write dropped), not an
            # error page; the log says so once a minute
            # (club/operations/logs/cache_log.py).
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": key_prefix,
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                # A Redis that stops answering fails a request in seconds instead of hanging it.
                "SOCKET_CONNECT_TIMEOUT": 2,
                "SOCKET_TIMEOUT": 2,
            },
        }
    }


CACHES = cache_settings(CACHE_URL, CACHE_KEY_PREFIX)
# Each call django-redis lets through is logged (to "club.operations.logs.cache_log"), one line
# a minute at most.
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
DJANGO_REDIS_LOGGER = "club.operations.logs.cache_log"

# Live pages (club/lib/live_marks.py): how long a page's "nothing changed" mark lives. With a
# shared cache a change reaches every node's marks at once, so they may live for minutes; each
# process's own cache keeps them a second.
LIVE_MARK_SECONDS = int(os.environ.get("LIVE_MARK_SECONDS") or (300 if CACHE_URL else 1))
# Push (club/lib/live_push.py): the push engine's publisher location, bound to a private address,
# e.g. http://127.0.0.1:8090/live/pub/ (nginx with nchan, docs/operators.md). Empty: no push,
# pages poll. LIVE_SUBSCRIBE_PATH is where browsers subscribe, on the site's own address.
LIVE_PUSH_URL = os.environ.get("LIVE_PUSH_URL", "").strip()
if LIVE_PUSH_URL and not LIVE_PUSH_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured("LIVE_PUSH_URL must be an http:// URL (the engine's publisher).")
LIVE_SUBSCRIBE_PATH = os.environ.get("LIVE_SUBSCRIBE_PATH", "/live/sub/").strip()
LIVE_PUSH_TIMEOUT = float(os.environ.get("LIVE_PUSH_TIMEOUT", "0.5"))
# Django's own database sessions: any node reads any session, and a log-out ends it on all.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Logs: one line per request (club.operations.logs.request_log: request id, club, method, route,
# status, time) and every other record with the request id it happened in; `LOG_FORMAT=json` writes
# each as one JSON object per line for a log collector. REQUEST_LOG=false leaves the request lines
# out.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured("LOG_FORMAT must be text or json.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "club.operations.logs.request_log.RequestIdFilter"},
        # A token URL's secret part never reaches a log line
        # (club/operations/logs/log_redaction.py).
        "redact_tokens": {"()": "club.operations.logs.log_redaction.RedactTokens"},
        "once_a_minute": {"()": "club.operations.logs.cache_log.OncePerMinute"},
    },
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "club.operations.logs.request_log.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id", "redact_tokens"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own loggers print through the root's handler only (its default console handler
    # besides printed every line twice under DEBUG).
    "loggers": {
        "django": {"handlers": [], "level": "INFO"},
        "club.requests": {"level": "INFO" if env_bool("REQUEST_LOG", True) else "WARNING"},
        "club.operations.logs.cache_log": {"filters": ["once_a_minute"]},
    },
}

# Error tracking (Sentry), off unless SENTRY_DSN is set: each error and its breadcrumbs are
# scrubbed of tokens, email addresses, cookies, headers and bodies first
# (club/operations/logs/error_tracking.py).
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
SENTRY_ENVIRONMENT = os.environ.get("SENTRY_ENVIRONMENT", "production").strip() or "production"
if SENTRY_DSN:
    from club.operations.logs import error_tracking

    error_tracking.start(SENTRY_DSN, SENTRY_ENVIRONMENT)

# Email (results to players; also password reset). `EMAIL_URL` picks the backend:
# unset, mail is printed to the console; `smtp://user:password@host:587/?tls=True` (or
# `smtps://...:465/?ssl=True`) sends through an SMTP server; `dummy:` drops it. The sender is
# `DEFAULT_FROM_EMAIL`; links in emails start with `SITE_URL`.
_email = dj_email_url.parse(os.environ.get("EMAIL_URL", "console:"))
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
if EMAIL_BACKEND == "django.core.mail.backends.filebased.EmailBackend":
    EMAIL_BACKEND = "club.lib.mail_files.EmailBackend"  # a file a message, not a file a connection
EMAIL_HOST = _email["EMAIL_HOST"] or "localhost"
EMAIL_PORT = _email["EMAIL_PORT"] or 25
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"] or ""
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"] or ""
EMAIL_USE_TLS = bool(_email["EMAIL_USE_TLS"])
EMAIL_USE_SSL = bool(_email["EMAIL_USE_SSL"])
EMAIL_TIMEOUT = int(_email["EMAIL_TIMEOUT"] or os.environ.get("EMAIL_TIMEOUT", "20"))
# `EMAIL_URL=file:` writes each message to a file of its own, `<time>-<random>.eml`, in this
# folder (bin/demo: demo-mail/).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or _email["EMAIL_FILE_PATH"] or "sent-mail"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Solo Whist <solo@localhost>")
# The sender of the operator's alerts (a failed backup or check_backup) and who gets them:
# ADMINS="Pat Ops <ops@example.org>, oncall@example.org" (comma-separated, each an address or
# "Name <address>"). Empty: nobody is emailed (the command still fails, and says so).
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
ADMINS = [
    (name, address)
    for name, address in getaddresses([os.environ.get("ADMINS", "")])
    if name or address
]
for _name, _address in ADMINS:
    if "@" not in _address:
        raise ImproperlyConfigured(
            f"ADMINS: {(_name or _address)!r} is not an email address "
            "(write them comma-separated, each an address or Name <address>)"
        )
EMAIL_SUBJECT_PREFIX = "[Solo Whist] "
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The address a closed club's secretary is given to reach the host (their home page, the closing
# email): to reopen it, or for its data file. Empty: the line is left out.
HOST_CONTACT_EMAIL = os.environ.get("HOST_CONTACT_EMAIL", "").strip()

# Background work (publishing a night when its correction window ends, and sending
# the results emails) goes through the django-tasks backport. The database backend keeps the
# queue in the app's own database; run `python manage.py worker` beside the web server.
# `TASKS_BACKEND=immediate` runs each task at once inside the request instead (no worker).
TASKS = {
    "default": {
        "BACKEND": (
            "django_tasks.backends.immediate.ImmediateBackend"
            if os.environ.get("TASKS_BACKEND") == "immediate"
            else "django_tasks_db.DatabaseBackend"
        ),
    }
}

# /metrics (Prometheus' text format) answers only with `Authorization: Bearer <METRICS_TOKEN>`;
# unset, it is off. Under gunicorn, PROMETHEUS_MULTIPROC_DIR (an empty directory, read by
# prometheus-client itself) lets the node's workers add their counts up.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
PROMETHEUS_MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")

# /healthz calls the node "degraded" when a task has waited longer than this for a worker.
TASKS_MAX_WAIT_SECONDS = int(os.environ.get("TASKS_MAX_WAIT_SECONDS", "300"))
# A task held longer than this is one whose worker died: /healthz says "degraded", and a worker
# (`manage.py worker`) takes it up again, once.
TASKS_MAX_RUN_SECONDS = int(os.environ.get("TASKS_MAX_RUN_SECONDS", "600"))

if "sqlite" in DATABASES["default"]["ENGINE"]:
    # The covering indexes' INCLUDE columns speed up PostgreSQL; SQLite simply ignores them.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
