from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables and deals: the application service around the pure engine, its API and timers."""

    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.disputes import register_deal_subject
        from tables.projections import register_tables_projections
        from tables.timers import register_timers

        register_tables_projections()
        register_timers()
        register_deal_subject()
