from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments: the service around the pure decider, its durable process, API and tasks."""

    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.me import register_me_part
        from tournaments.me import ME_PART
        from tournaments.process import register_process
        from tournaments.projections import register_tournament_projections

        register_tournament_projections()
        register_process()
        register_me_part(ME_PART)  # the user's live stream shows his tournaments too
