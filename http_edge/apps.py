from django.apps import AppConfig


class HttpEdgeConfig(AppConfig):
    """The HTTP edge every API shares: authentication and API tokens, roles, idempotency, and the
    problem format with its one map from codes to statuses."""

    name = "http_edge"

    def ready(self) -> None:
        from http_edge.principal import connect_principal_invalidation

        connect_principal_invalidation()
