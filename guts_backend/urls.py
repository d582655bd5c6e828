"""URL map: the versioned API under /api/v1/, the OpenAPI schema and its offline viewers, admin, and
the pages for people (/audit/, /tables/{id}/, /login/: tables.web)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(url_name="schema", template_name="guts_backend/redoc.html"),
        name="redoc",
    ),  # offline: no web fonts
    path("api/v1/", include("ledger.urls")),
    path("api/v1/", include("tables.urls")),
    path("api/v1/", include("tables.audit.urls")),
    path("api/v1/", include("tournaments.urls")),
    path("", include("tables.web.urls")),
]

handler404 = "guts_backend.handlers.not_found_view"
handler500 = "guts_backend.handlers.server_error_view"
