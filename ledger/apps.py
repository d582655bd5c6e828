from django.apps import AppConfig


class LedgerConfig(AppConfig):
    """Event store, accounts and transfers, projections, cashier and audit."""

    name = "ledger"
    default_auto_field = "django.db.models.BigAutoField"
