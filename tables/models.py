"""Read models of the tables app: projections of the table streams, and decider snapshots.

Every row here is derived from the events of `table-<uuid>` streams by `tables.projections`
(inline, in the append transaction) and can be thrown away and rebuilt (`rebuild_projections`).
`TableSnapshot` is a cache of the decider state at deal boundaries (DESIGN §2.5): the service loads
the latest one and folds only the events after it, so a command's cost does not grow with history.
Hole cards live in `TableSnapshot.state` and `DealSummary.hands`: read them only through the
redacting selectors (DESIGN §2.6).
"""

from __future__ import annotations

from django.db import models


class TableView(models.Model):
    """One row per table: what lists and the timeout sweeper need without folding events."""

    table_id = models.UUIDField(primary_key=True)
    variant = models.CharField(max_length=50)
    options = models.JSONField()
    stacked = models.BooleanField(default=False)
    status = models.CharField(max_length=20)  # open | closed
    deal_no = models.PositiveIntegerField(default=0)
    game_no = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=20)  # between_deals | declare | ... | closed
    pot = models.BigIntegerField(default=0)
    reserve = models.BigIntegerField(default=0)
    dealer = models.CharField(max_length=64, blank=True, default="")  # "" before the first deal
    turn = models.JSONField(default=list)  # whose declare is awaited
    # Not indexed: every command moves it, and an index on it would make each of those updates
    # write a new row version and new index entries instead of updating in place (HOT; the table's
    # fillfactor leaves the room, migration 0004). The timer dispatcher scans the open tables.
    deadline = models.DateTimeField(null=True)
    seated = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField()
    opened_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    tournament_id = models.UUIDField(null=True, blank=True, db_index=True)
    unit = models.CharField(max_length=80, default="chips")  # "t:<tournament>" at its tables
    name = models.CharField(max_length=100, blank=True, default="")  # from TableOpened; "" before names

    class Meta:
        verbose_name = "table"
        indexes = [models.Index(fields=["status", "opened_at"], name="tables_view_status_opened")]

    def __str__(self) -> str:
        return f"{self.name or self.variant} ({self.table_id}; {self.status}, deal {self.deal_no})"


class SeatView(models.Model):
    """A player's seat at a table and its stack; `status` left keeps the row after a cash-out."""

    table_id = models.UUIDField()
    player = models.CharField(max_length=64)
    seat = models.PositiveSmallIntegerField()
    stack = models.BigIntegerField()
    legs = models.PositiveSmallIntegerField(default=0)  # tokens of the current game (357-03)
    status = models.CharField(max_length=20)  # seated | sitting_out | left

    class Meta:
        verbose_name = "seat"
        constraints = [
            models.UniqueConstraint(fields=["table_id", "player"], name="tables_seat_table_player")
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.table_id}: {self.player} ({self.stack}, {self.status})"


class DealSummary(models.Model):
    """One row per deal. `hands` (every participant's cards) is private: serve it redacted."""

    table_id = models.UUIDField()
    deal_no = models.PositiveIntegerField()
    game_no = models.PositiveIntegerField()
    dealer = models.CharField(max_length=64)
    participants = models.JSONField()  # from the dealer's left, dealer last
    stacked = models.BooleanField(default=False)
    commitment = models.CharField(max_length=64, blank=True, default="")  # "" when stacked
    seed = models.CharField(max_length=128, blank=True, default="")  # revealed at DealEnded
    declares = models.JSONField(default=dict)  # {player: in|out}, only once public
    timed_out = models.JSONField(default=list)
    hands = models.JSONField(default=dict)  # {player: [cards]}: PRIVATE
    shown = models.JSONField(default=list)  # players whose hands were shown
    winners = models.JSONField(default=list)
    losers = models.JSONField(default=list)
    outcome = models.CharField(max_length=30, blank=True, default="")
    pot_before = models.BigIntegerField()
    reserve_before = models.BigIntegerField()
    pot_after = models.BigIntegerField(null=True)
    reserve_after = models.BigIntegerField(null=True)
    antes = models.JSONField(default=list)  # transfers of every AntesPosted
    settlement = models.JSONField(default=list)  # transfers of every settlement and award
    results = models.JSONField(default=list)  # every stage's results in order: PRIVATE
    compared = models.JSONField(default=list)  # a private comparison's players (D-357-03)
    board = models.JSONField(default=list)  # community cards (423-02), public
    face_up = models.JSONField(default=dict)  # {player: [face-up cards]}, public
    over = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True)

    class Meta:
        verbose_name_plural = "deal summaries"
        constraints = [models.UniqueConstraint(fields=["table_id", "deal_no"], name="tables_deal_table_no")]

    def __str__(self) -> str:
        return f"deal {self.deal_no} of {self.table_id}"


class DealPlayer(models.Model):
    """Who was dealt into which deal: the index behind a player's deal history."""

    player = models.CharField(max_length=64)
    table_id = models.UUIDField()
    deal_no = models.PositiveIntegerField()
    started_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "table_id", "deal_no"], name="tables_dealplayer_unique")
        ]
        indexes = [models.Index(fields=["player", "started_at"], name="tables_dealplayer_player")]

    def __str__(self) -> str:
        return f"{self.player} in deal {self.deal_no} of {self.table_id}"


class TableSnapshot(models.Model):
    """The decider state of a table after `version` (a cache; deletable; checked against a full fold)."""

    table_id = models.UUIDField()
    version = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table_id", "version"], name="tables_snapshot_version")
        ]

    def __str__(self) -> str:
        return f"snapshot of {self.table_id} at {self.version}"
