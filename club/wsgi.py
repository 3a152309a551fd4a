"""The WSGI application, as gunicorn loads it in each worker."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
application = get_wsgi_application()

# What loading the app made (its modules, models, settings: most of a worker's objects) lives as
# long as the worker. Frozen out of the garbage collector's full passes, which otherwise walk it
# all again every few dozen requests, and in every worker at about the same moment: fifteen
# tables saving at once saw a pause of a few hundred milliseconds about their hundredth save.
gc.collect()
gc.freeze()
