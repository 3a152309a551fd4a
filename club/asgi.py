"""The ASGI application, for a server that speaks ASGI (uvicorn, daphne). The operators' guide
runs gunicorn's sync workers through club/wsgi.py; this is the same app for the other kind."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
application = get_asgi_application()
