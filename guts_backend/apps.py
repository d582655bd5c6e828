from django.apps import AppConfig


class GutsBackendConfig(AppConfig):
    """Settings, authentication, roles, idempotency and the problem format shared by every API."""

    name = "guts_backend"

    def ready(self) -> None:
        from guts_backend.principal import connect_principal_invalidation

        connect_principal_invalidation()
