from django.apps import AppConfig


class LedgerConfig(AppConfig):
    """Event store, accounts and transfers, projections, cashier and audit."""

    name = "ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """The ledger's wiring, explicit and in one place (never an import side effect): appends run
        the inline projections, the balance projector is one of them, and users with a ledger
        footprint are deactivated instead of deleted. Runs before the tables app's ready()
        (INSTALLED_APPS order), so balances are projected before the tables' views."""
        from ledger import inline, projections
        from ledger.deactivation import register_deactivation

        inline.set_inline_runner(projections.run_inline, projections.apply_inline)
        projections.register_projector(projections.BalanceProjector())
        register_deactivation()
