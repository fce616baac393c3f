import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Every serving process marks the database as served for as long as it runs, whatever server runs it (waitress,
# gunicorn, runserver): `manage.py restore` refuses while one does (tournament/serving.py).
from tournament.serving import hold_serving_lock  # noqa: E402 (needs the apps loaded above)

hold_serving_lock()
