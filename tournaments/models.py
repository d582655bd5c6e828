"""Read models of the tournaments app: projections of the `tournament-<uuid>` streams.

They are derived by `tournaments.projections` inline, in the append transaction, and are rebuilt
by `rebuild_projections`. `TournamentView` serves the list and the sweeper's query; `TournamentTable`
maps a tournament's tables back to it (the table side knows nothing of tournaments' streams);
`TournamentEntrant` lists a player's tournaments.
"""

from __future__ import annotations

from django.db import models


class TournamentView(models.Model):
    tournament_id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=50)
    status = models.CharField(max_length=20)  # registering | running | cancelling | complete | cancelled
    start_at = models.DateTimeField()
    buy_in = models.BigIntegerField()
    fee = models.BigIntegerField()
    entrants = models.PositiveIntegerField(default=0)
    remaining = models.PositiveIntegerField(default=0)
    level = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=64, blank=True, default="")
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = "tournament"
        indexes = [models.Index(fields=["status", "start_at"], name="tournaments_status_start")]

    def __str__(self) -> str:
        return f"tournament {self.name} ({self.status})"


class TournamentTable(models.Model):
    table_id = models.UUIDField(primary_key=True)
    tournament_id = models.UUIDField(db_index=True)

    def __str__(self) -> str:
        return f"table {self.table_id} of tournament {self.tournament_id}"


class TournamentEntrant(models.Model):
    """Who is registered for which tournament (unregistering removes the row): the index behind a
    player's `GET /me/tournaments`, without folding every tournament."""

    tournament_id = models.UUIDField()
    player = models.CharField(max_length=64)
    registered_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "tournament_id"], name="tournaments_entrant_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} in tournament {self.tournament_id}"


class TournamentTickHealth(models.Model):
    """How the sweeper's last ticks of a tournament went: operational state, not a projection (no
    event says it, `rebuild_projections` leaves it alone). The sweeper ticks the tournaments with
    the fewest failures first, the least recently tried first among them, so tournaments whose
    ticks fail never starve the others; staff see the failing ones in the admin."""

    tournament_id = models.UUIDField(primary_key=True)
    last_attempt_at = models.DateTimeField()
    last_success_at = models.DateTimeField(null=True, blank=True)
    failing_since = models.DateTimeField(null=True, blank=True)
    consecutive_failures = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        verbose_name_plural = "tournament tick health"
        indexes = [
            models.Index(fields=["consecutive_failures", "last_attempt_at"], name="tournaments_tick_order")
        ]

    def __str__(self) -> str:
        state = f"failing x{self.consecutive_failures}" if self.consecutive_failures else "ok"
        return f"tournament {self.tournament_id}: {state}"
