"""Rebuild equals live (DESIGN §2.5): replaying the log gives the same table projections and balances."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import models

from ledger.models import AccountBalance, AccountEntry
from ledger.money import check_conservation
from ledger.projections import rebuild_all
from tables import service
from tables.engine.decider import commands as cmd
from tables.models import DealPlayer, DealSummary, SeatView, TableSnapshot, TableView
from tables.state import cache, load_table

pytestmark = pytest.mark.django_db

COMPARED: list[tuple[type[models.Model], tuple[str, ...]]] = [
    (TableView, ("table_id",)),
    (SeatView, ("table_id", "player")),
    (DealSummary, ("table_id", "deal_no")),
    (DealPlayer, ("table_id", "deal_no", "player")),
    (AccountBalance, ("account", "unit")),
    # several lines of one event may share account and amount (antes into the pot): the running
    # balance and the counterparty make the order total, so it never depends on how rows are read
    (AccountEntry, ("position", "account", "amount", "balance_after", "counterparty")),
]


def rows(model: type[models.Model], key: tuple[str, ...]) -> list[dict[str, Any]]:
    fields = [f.attname for f in model._meta.concrete_fields if not f.primary_key or f.name == "table_id"]
    return sorted(model.objects.values(*fields), key=lambda row: tuple(str(row[k]) for k in key))


def play(funded_player: Any, mode: str, deals: int, rng: random.Random) -> str:
    players = [funded_player(5000) for _ in range(4)]
    table = service.table_open(
        variant="guts2", options={"ante": 5, "pot_limit": 40, "min_buy_in": 100, "declare_mode": mode}
    ).table_id
    for player in players:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 1000))
    for deal_no in range(1, deals + 1):
        service.table_command(table_id=table, command=cmd.StartDeal())
        while (live := load_table(table).state.live) is not None:
            for player in list(live.awaiting):
                choice = rng.choice(["in", "out"])
                service.table_command(table_id=table, command=cmd.Declare(player, deal_no, choice))
    service.table_command(table_id=table, command=cmd.Leave(str(players[0])))
    return table


def test_rebuild_projections_equals_live(funded_player: Any) -> None:
    rng = random.Random(5)
    tables = [play(funded_player, "sequential", 12, rng), play(funded_player, "simultaneous", 12, rng)]
    assert DealSummary.objects.filter(table_id__in=tables, reserve_after__gt=0).exists()  # RES-01 ran
    live = {model: rows(model, key) for model, key in COMPARED}
    snapshots = sorted(TableSnapshot.objects.values_list("table_id", "version"))
    states = {table: load_table(table).state for table in tables}
    rebuild_all()
    for model, key in COMPARED:
        assert rows(model, key) == live[model], model.__name__
    # DESIGN §2.5: a snapshot at every deal boundary, also when the log is replayed in big batches
    assert sorted(TableSnapshot.objects.values_list("table_id", "version")) == snapshots
    assert len(snapshots) >= 24  # every DealEnded, and GameEnded where a game ended
    cache.clear()
    for table in tables:
        assert load_table(table).state.seats == states[table].seats
        assert (load_table(table).state.pot, load_table(table).state.reserve) == (
            states[table].pot,
            states[table].reserve,
        )
    assert check_conservation() == []
