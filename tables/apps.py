from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables and deals: the application service around the pure engine, its API and timers."""

    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ledger.names import register_account_namer
        from tables.disputes import register_deal_subject
        from tables.naming import table_account_names
        from tables.projections import register_tables_projections
        from tables.timers import register_timers

        register_tables_projections()
        register_timers()
        register_deal_subject()
        register_account_namer(("seat", "pot", "reserve", "bets"), table_account_names)
