"""Many clients acting on one table at once (PostgreSQL): no lost or doubled events, each client
gets the right answer (success or the right 409), and the chips are conserved (DESIGN §2.3)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from ledger.errors import DomainError
from ledger.money import check_conservation
from ledger.store import read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider import errors as rules
from tables.state import load_table, table_stream

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def all_at_once(calls: list[Callable[[], Any]]) -> list[str]:
    """Run the calls in threads released together; each one's answer: "ok" or the problem code."""
    barrier = threading.Barrier(len(calls))
    answers: list[str] = [""] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            calls[i]()
            answers[i] = "ok"
        except (DomainError, rules.DomainError) as problem:
            answers[i] = problem.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def open_table(funded_player: Callable[..., int], players: int, mode: str) -> tuple[str, list[int]]:
    ids = [funded_player(2000) for _ in range(players)]
    table = service.table_open(
        variant="guts2", options={"ante": 10, "min_buy_in": 100, "declare_mode": mode}
    ).table_id
    for player in ids:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 500))
    service.table_command(table_id=table, command=cmd.StartDeal())
    return table, ids


def check_log(table: str) -> list[Any]:
    events = read_stream(table_stream(table))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    return events


def declare(table: str, player: int, choice: str) -> Callable[[], Any]:
    return lambda: service.table_command(table_id=table, command=cmd.Declare(str(player), 1, choice))


def test_simultaneous_declares_at_once(funded_player: Callable[..., int]) -> None:  # SIM-01
    table, players = open_table(funded_player, 8, "simultaneous")
    calls = [declare(table, p, c) for p in players for c in ("in", "out")]  # each player twice
    answers = all_at_once(calls)
    by_player = [sorted(answers[2 * i : 2 * i + 2]) for i in range(len(players))]
    for pair in by_player:
        assert pair[1] == "ok" or pair[0] == "ok"
        assert sorted(pair) in (["already_declared", "ok"], ["deal_over", "ok"])
    events = check_log(table)
    declared = Counter(e.data["player"] for e in events if e.type == "Declared")
    assert declared == Counter({str(p): 1 for p in players})
    assert [e.type for e in events].count("DealEnded") == 1
    assert load_table(table).state.live is None
    assert check_conservation() == []


def test_sequential_declares_race_for_the_turn(funded_player: Callable[..., int]) -> None:  # G2-08
    table, players = open_table(funded_player, 6, "sequential")
    order = [int(p) for p in load_table(table).state.live.order]
    remaining = list(players)
    while load_table(table).state.live is not None:
        answers = dict(
            zip(remaining, all_at_once([declare(table, p, "out") for p in remaining]), strict=True)
        )
        # a queued client whose turn came while it waited succeeds too: the successes are always
        # the next players in turn order, everyone else is told not_your_turn
        done = [p for p in order if answers.get(p) == "ok"]
        assert done, answers
        assert done == [p for p in order if p in remaining][: len(done)]
        over = load_table(table).state.live is None
        refused = {"not_your_turn", "deal_over"} if over else {"not_your_turn"}  # G2-10 ends it
        assert all(answers[p] in refused for p in remaining if p not in done), answers
        remaining = [p for p in remaining if p not in done]
    events = check_log(table)
    declared = [e.data["player"] for e in events if e.type == "Declared"]
    assert len(declared) == len(set(declared)) == len(players)  # G2-10: the dealer forced in
    assert check_conservation() == []


def test_many_tables_at_once_do_not_block_each_other(funded_player: Callable[..., int]) -> None:
    tables = [open_table(funded_player, 2, "simultaneous") for _ in range(4)]
    calls = [declare(table, p, "in") for table, players in tables for p in players]
    assert all_at_once(calls) == ["ok"] * len(calls)
    for table, _ in tables:
        check_log(table)
        assert load_table(table).state.live is None
    assert check_conservation() == []
