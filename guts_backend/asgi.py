"""ASGI entry point (uvicorn guts_backend.asgi:application), used for long-lived SSE streams."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guts_backend.settings")
application = get_asgi_application()
