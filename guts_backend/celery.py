"""The Celery app. Configuration comes from Django settings under the CELERY_ namespace."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guts_backend.settings")

app = Celery("guts_backend")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
