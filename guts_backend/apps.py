from django.apps import AppConfig


class GutsBackendConfig(AppConfig):
    """The composition root: settings, URLs, the admin site, the Celery app, the web server's
    application and the management commands (seed_demo, serve)."""

    name = "guts_backend"
