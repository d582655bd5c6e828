from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments: the service around the pure decider, its durable process, API and tasks."""

    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ledger.names import register_account_namer
        from tables.me import register_me_part
        from tables.naming import register_tournament_names
        from tournaments.me import ME_PART
        from tournaments.process import register_process
        from tournaments.projections import register_tournament_projections
        from tournaments.selectors import tournament_account_names, tournament_names_of

        register_tournament_projections()
        register_process()
        register_tournament_names(tournament_names_of)
        register_account_namer(("prizepool", "chipbank"), tournament_account_names)
        register_me_part(ME_PART)  # the user's live stream shows his tournaments too
