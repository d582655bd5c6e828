"""A whole tournament through the service: 12 players at 2 tables on stacked
decks, two eliminations in one deal sharing places by their starting stacks, a balancing move,
level changes applied from the next deal, a table break, completion with payouts summing exactly
to the prize pool; conservation per unit at every event; rebuild equals live; a crash between a
table's commit and the reaction (the reaction happens exactly once afterwards)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import models
from django.test import override_settings

from ledger.accounts import MAY_GO_NEGATIVE, account_kind, chipbank_account, tournament_unit
from ledger.models import AccountBalance
from ledger.money import balance, balances, check_conservation
from ledger.projections import rebuild_all
from ledger.store import read_all, read_stream
from ledger.verify import verify_ledger
from tables import service as tables
from tables.engine.decider import commands as tcmd
from tables.state import load_table, table_stream
from tournaments import service
from tournaments.models import TournamentTable, TournamentView
from tournaments.state import cache, tournament_stream

from .conftest import T0, tournament_fields

pytestmark = pytest.mark.django_db

# D-G2-01: one card at a time from the dealer's left. With 12 distinct ranks, whatever the number of
# players (2..6), the dealer's left holds the best hand, the next one the second best, and so on.
DECK = [
    "As",
    "Kh",
    "Qd",
    "Jc",
    "Ts",
    "9h",
    "8d",
    "7c",
    "6s",
    "5h",
    "4d",
    "3c",
    "2s",
    "Ac",
    "Kd",
    "Qh",
    "Js",
    "Tc",
    "9s",
    "8h",
    "7d",
    "6c",
    "5s",
    "4h",
]
LEVELS = [*({"ante": 5 * 2**i, "minutes": 1} for i in range(6)), {"ante": 320, "minutes": 60}]


class Run:
    """One tournament driven by the test: the clock, the declares, the reactions."""

    def __init__(self, funded_player: Callable[..., int], players: int = 12, **changes: Any) -> None:
        self.players = [funded_player(1000) for _ in range(players)]
        self.now = T0 - timedelta(minutes=10)
        fields = tournament_fields(
            **{
                "options": {"ante_rule": "every_deal"},
                "buy_in": 100,
                "fee": 10,
                "starting_chips": 100,
                "min_entrants": players,
                "max_entrants": players,
                "levels": LEVELS,
                "late_registration_level": 0,
                "payouts": [50, 30, 20],
                "pause_seconds": 5,
                **changes,
            }
        )
        self.tid = service.tournament_create(fields=fields, now=self.now).tournament_id
        for player in self.players:
            service.tournament_register(tournament_id=self.tid, player_id=player, now=self.now)
        with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
            self.state = service.tournament_start(
                tournament_id=self.tid, now=T0, stacked_decks=[[DECK]] * 3
            ).state
        self.now = T0

    def tick(self, seconds: float = 6) -> service.TournamentResult:
        self.now += timedelta(seconds=seconds)
        result = service.tournament_tick(tournament_id=self.tid, now=self.now)
        self.state = result.state
        return result

    def play(self, table_id: str, choose: Callable[[Any, str, int], str]) -> Any:
        """Play the table's live deal: `choose(deal, player, position)` says in or out."""
        while (deal := load_table(table_id).state.live) is not None:
            for player in deal.awaiting:
                self.now += timedelta(seconds=1)
                choice = choose(deal, player, deal.order.index(player))
                tables.table_command(
                    table_id=table_id, command=tcmd.Declare(player, deal.deal_no, choice), now=self.now
                )
        return load_table(table_id).state

    def stream(self) -> list[Any]:
        return read_stream(tournament_stream(self.tid))


def best_and(*positions: int) -> Callable[[Any, str, int], str]:
    """The dealer's left (the best hand) and the players at `positions` declare in."""
    return lambda deal, player, position: "in" if position == 0 or position in positions else "out"


def test_a_whole_tournament(funded_player: Callable[..., int]) -> None:
    run = Run(funded_player)
    a, b = run.state.tables
    assert sorted(len(run.state.members(t)) for t in (a, b)) == [6, 6]
    run.tick(0)  # the first deals start at the start time
    first = run.play(a, best_and(1, 2, 4, 5))  # four lose the pot of antes (30): pot 120
    v1, v2 = first.deal.order[3], first.deal.order[4]  # v1 sat out, v2 paid 30
    run.play(b, best_and())
    run.tick()  # processed, next deals after the pause
    assert load_table(a).state.deal_no == 1
    start = {p: load_table(a).state.stack_of(p) for p in (v1, v2)}
    assert start == {v1: 95, v2: 65}
    run.tick()
    second = load_table(a).state.live
    assert (second.deal_no, second.order.index(v1), second.order.index(v2)) == (2, 2, 3)
    run.play(a, best_and(2, 3))  # both lose their whole stacks to the pot (150)
    run.play(b, best_and())
    result = run.tick()
    [out] = [e for e in result.events if e.type == "EntrantsEliminated"]
    assert [(p["player"], p["place"], p["start_stack"]) for p in out.data["placings"]] == [
        (v1, 11, 95),
        (v2, 12, 65),
    ]  # same deal: ranked by starting stacks
    [move] = [e for e in result.events if e.type == "EntrantMoved"]
    assert (move.data["from_table"], move.data["to_table"], move.data["reason"]) == (b, a, "balance")
    assert sorted(len(run.state.members(t)) for t in (a, b)) == [5, 5]
    assert_table_moved(a, b, move.data["player"])

    rng = random.Random(13)
    for _ in range(400):  # then to the end, the best hand always in
        if run.state.status != "running":
            break
        for table in run.state.active_tables():
            if load_table(table).state.live is not None:
                run.play(
                    table,
                    lambda deal, player, position: "in" if position == 0 or rng.random() < 0.5 else "out",
                )
        run.tick(10)
    assert run.state.status == "complete", debug(run)
    assert_the_tournament_was_whole(run)
    assert_conservation_at_every_event()
    report = verify_ledger()  # hash chains (the sealed seed too), balances
    assert report.ok, report.to_json()
    assert tournament_unit(run.tid) in report.units
    assert_rebuild_equals_live()


def debug(run: Run) -> str:
    st = run.state
    lines = [
        f"level {st.level} scheduled {dict(st.scheduled)} processed {dict(st.processed)}",
        f"broken {st.broken}",
    ]
    for t in st.tables:
        ts = load_table(t).state
        lines.append(
            f"{t}: status {ts.status} deal {ts.deal_no} live {ts.live is not None} "
            f"seats {[(s.player, s.stack) for s in ts.seats]} pot {ts.pot} members {st.members(t)}"
        )
    lines += [f"{e.type} {e.data}" for e in run.stream()[-8:]]
    return "\n".join(lines)


def assert_table_moved(a: str, b: str, player: str) -> None:
    """A move is an event on both tables: out of B with his chips, into A without a transfer."""
    moved_out = [e for e in read_stream(table_stream(b)) if e.type == "EntrantMovedOut"]
    moved_in = [e for e in read_stream(table_stream(a)) if e.type == "EntrantMovedIn"]
    assert [e.data["player"] for e in moved_out] == [player]
    assert [(e.data["player"], e.data["chips"]) for e in moved_in] == [(player, moved_out[0].data["chips"])]
    assert load_table(a).state.stack_of(player) == moved_out[0].data["chips"]


def assert_the_tournament_was_whole(run: Run) -> None:
    events = run.stream()
    types = [e.type for e in events]
    assert "TournamentTableBroken" in types  # 6 players left fit at one table
    [broken] = [e.data["table_id"] for e in events if e.type == "TournamentTableBroken"]
    assert any(e.type == "TableBroken" for e in read_stream(table_stream(broken)))
    levels = [e.data["level"] for e in events if e.type == "LevelStarted"]
    assert levels[:2] == [2, 3]
    antes = {(e.data["table_id"], e.data["ante"]) for e in events if e.type == "AnteSet"}
    assert {ante for _, ante in antes} >= {10}
    assert_antes_follow_the_levels(run)
    [done] = [e for e in events if e.type == "TournamentCompleted"]
    results = done.data["results"]
    assert sorted(r["player"] for r in results) == sorted(str(p) for p in run.players)
    spans = {(r["place"], r["last"]) for r in results}  # a tie shares one span of places
    assert sorted(p for first, last in spans for p in range(first, last + 1)) == list(range(1, 13))
    assert done.data["winner"] == next(r["player"] for r in results if r["place"] == 1)
    assert sum(t["amount"] for t in done.data["transfers"]) == 1200  # the prize pool, every chip
    assert balance(f"prizepool:{run.tid}") == 0
    assert balance("house") == 120
    for r in results:  # bankrolls: 1000 - buy-in - fee + prize
        assert balance(f"player:{r['player']}") == 890 + r["prize"]
    unit = tournament_unit(run.tid)
    assert balance(chipbank_account(run.tid), unit) == 0  # every tournament chip back in the bank
    assert all(amount == 0 for amount in balances(unit).values())
    assert TournamentView.objects.get(tournament_id=run.tid).status == "complete"


def assert_antes_follow_the_levels(run: Run) -> None:
    """Each deal antes at the level that ran when its table last heard (never above it)."""
    for table in run.state.tables:
        ante, seen = LEVELS[0]["ante"], set()
        for event in read_stream(table_stream(table)):
            if event.type == "AnteChanged":
                ante = event.data["ante"]
            elif event.type == "AntesPosted":
                amounts = [t["amount"] for t in event.data["transfers"]]
                assert max(amounts) <= ante
                seen.add(max(amounts))
        assert seen


def assert_conservation_at_every_event() -> None:
    """DESIGN §2.4: per unit the balances sum to zero after every event of the log, and no account
    that may not go negative ever does (the chip bank is the tournament chips' issuer)."""
    held: dict[tuple[str, str], int] = defaultdict(int)
    totals: dict[str, int] = defaultdict(int)
    after = 0
    while batch := read_all(after=after, limit=1000):
        for event in batch:
            for t in event.data.get("transfers", ()):
                unit = t.get("unit", "chips")
                held[(t["from"], unit)] -= t["amount"]
                held[(t["to"], unit)] += t["amount"]
                totals.setdefault(unit, 0)
                negative_ok = account_kind(t["from"]) in MAY_GO_NEGATIVE
                assert held[(t["from"], unit)] >= 0 or negative_ok, (event, t)
            for unit in totals:
                assert sum(v for (_, u), v in held.items() if u == unit) == 0
        after = batch[-1].position
    assert check_conservation() == []


COMPARED: list[tuple[type[models.Model], tuple[str, ...]]] = [
    (TournamentView, ("tournament_id",)),
    (TournamentTable, ("table_id",)),
    (AccountBalance, ("account", "unit")),
]


def rows(model: type[models.Model], key: tuple[str, ...]) -> list[dict[str, Any]]:
    fields = [f.attname for f in model._meta.concrete_fields if f.name != "id"]
    return sorted(model.objects.values(*fields), key=lambda row: tuple(str(row[k]) for k in key))


def assert_rebuild_equals_live() -> None:
    live = {model: rows(model, key) for model, key in COMPARED}
    rebuild_all()
    cache.clear()
    for model, key in COMPARED:
        assert rows(model, key) == live[model], model.__name__
