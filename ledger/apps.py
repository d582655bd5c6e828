from django.apps import AppConfig


class LedgerConfig(AppConfig):
    """Event store, accounts and transfers, projections, cashier and audit."""

    name = "ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """The ledger's wiring, explicit and in one place (never an import side effect): appends run
        the inline projections, the balance projector is one of them, and users with a ledger
        footprint are deactivated instead of deleted; disputes are projected (their hold guard after the
        balances) and cashier transactions can be disputed; players' display names are projected.
        Runs before the tables app's ready() (INSTALLED_APPS order), so balances are projected before
        the tables' views."""
        from ledger import inline, projections
        from ledger.deactivation import register_deactivation
        from ledger.disputes.events import register_dispute_events
        from ledger.disputes.projections import DisputesProjector
        from ledger.disputes.subjects import register_cashier_subject
        from ledger.names import register_names

        inline.set_inline_runner(projections.run_inline, projections.collect_inline)
        projections.register_projector(projections.BalanceProjector())
        projections.register_projector(DisputesProjector())  # after the balances: its guard reads them
        register_deactivation()
        register_dispute_events()
        register_cashier_subject()
        register_names()
