"""The composition root: settings, URLs, the admin site, the Celery app, WSGI/ASGI entry points and
the management commands. The apps (ledger, tables, tournaments) and the HTTP edge they share
(http_edge) never import it."""

from guts_backend.celery import app as celery_app

__all__ = ["celery_app"]
