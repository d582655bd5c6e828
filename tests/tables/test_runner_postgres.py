"""The one command runner (ledger.runner) on PostgreSQL: a writer that lost a race re-decides on
the new head and appends once; a stale head is found inside the transaction, which stays usable;
and each event of a command is folded once, by the decider, never again by the service, the state
cache or the projector (DESIGN §2.2, §2.3, §2.5)."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from django.utils import timezone

from ledger import runner
from ledger.money import check_conservation
from ledger.store import ConcurrencyError, StreamWrite, append, read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider import evolve as evolve_module
from tables.engine.decider.decide import decide
from tables.errors import StaleVersion
from tables.models import DealSummary, SeatView, TableView
from tables.state import TABLES, load_table, table_stream

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def open_table(funded_player: Callable[..., int], seated: int) -> tuple[str, list[int]]:
    players = [funded_player(5000) for _ in range(seated + 1)]
    table = service.table_open(variant="guts2", options={"ante": 10, "min_buy_in": 100}).table_id
    for player in players[:seated]:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 500))
    return table, players


def sit_down_without_the_lock(table: str, player: int) -> None:
    write_without_the_lock(table, cmd.SitDown(str(player), 500))


def write_without_the_lock(table: str, command: Any) -> None:
    """Another writer of the table's stream, in its own thread and transaction, that bypasses the
    table's command lock (as a process with a stale view of the table would race)."""

    def write() -> None:
        try:
            with transaction.atomic():
                loaded = TABLES.load(table)
                decided = decide(loaded.state, command, timezone.now())
                append(
                    [
                        StreamWrite(
                            table_stream(table), loaded.version, [service._stored(event) for event in decided]
                        ),
                        *service.bankroll_markers(table, loaded.version, decided),
                    ],
                    savepoint=False,
                )
        finally:
            connection.close()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(10)


def test_two_writers_on_one_table_clash_and_the_loser_re_decides_once(
    funded_player: Callable[..., int], monkeypatch: pytest.MonkeyPatch
) -> None:  # D-GEN-02
    table, players = open_table(funded_player, 1)
    late, early = players[1], funded_player(5000)
    decided_at: list[int] = []
    real_decide = service.RUNNER.decide

    def deciding(state: Any, command: Any, now: Any) -> Any:
        decided_at.append(len(state.seats))
        if len(decided_at) == 1:  # the other writer commits between our load and append
            sit_down_without_the_lock(table, early)
        return real_decide(state, command, now)

    monkeypatch.setattr(service.RUNNER, "decide", deciding)
    result = service.table_command(table_id=table, command=cmd.SitDown(str(late), 500))
    assert decided_at == [1, 2]  # decided again on the new head
    events = read_stream(table_stream(table))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    seated = Counter(e.data["player"] for e in events if e.type == "PlayerSeated")
    assert seated == Counter({str(players[0]): 1, str(early): 1, str(late): 1})  # nothing twice
    assert result.version == events[-1].version
    assert {s.player for s in load_table(table).state.seats} == {str(players[0]), str(early), str(late)}
    assert SeatView.objects.filter(table_id=table, status="seated").count() == 3
    assert check_conservation() == []


def test_a_stale_head_is_found_inside_the_transaction_which_stays_usable(
    funded_player: Callable[..., int],
) -> None:
    table, players = open_table(funded_player, 1)
    with transaction.atomic():
        loaded = TABLES.load_locked(table)
        sit_down_without_the_lock(table, players[1])  # commits version + 1 meanwhile
        decided = decide(loaded.state, cmd.SitDown(str(players[1]), 500), timezone.now())
        stale = [StreamWrite(table_stream(table), loaded.version, [service._stored(e) for e in decided])]
        with pytest.raises(ConcurrencyError) as clash:
            append(stale, savepoint=False)
        assert clash.value.actual == loaded.version + 1
        with connection.cursor() as cursor:  # not aborted: the retry runs in it
            cursor.execute("SELECT 1")
        assert TABLES.load_locked(table).version == loaded.version + 1
    assert len([e for e in read_stream(table_stream(table)) if e.type == "PlayerSeated"]) == 2


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts every call of the engine's `evolve`, by the module that called it: each module that
    imported it (the engine's own, tables.state, tables.projections, ...) gets a counting one."""
    counted: Counter[str] = Counter()
    original = evolve_module.evolve
    for name, module in list(sys.modules.items()):
        if (
            name.startswith(("tables", "ledger", "tournaments"))
            and module is not None
            and getattr(module, "evolve", None) is original
        ):

            def counting(state: Any, event: Any, _where: str = name) -> Any:
                counted[_where] += 1
                return original(state, event)

            monkeypatch.setattr(module, "evolve", counting)
    return counted


def engine(counted: Counter[str]) -> int:
    return sum(n for where, n in counted.items() if where.startswith("tables.engine"))


def test_each_event_of_a_command_is_folded_once(
    funded_player: Callable[..., int], folds: Counter[str]
) -> None:  # D-G2-01
    table, _ = open_table(funded_player, 3)
    for command in (cmd.StartDeal(), None, None, None):
        before = len(read_stream(table_stream(table)))
        folds.clear()
        if command is None:
            deal = load_table(table).state.live
            assert deal is not None
            command = cmd.Declare(deal.awaiting[0], deal.deal_no, "in")
        folds.clear()
        result = service.table_command(table_id=table, command=command)
        appended = len(read_stream(table_stream(table))) - before
        assert appended == len(result.events) > 0
        outside = {where: n for where, n in folds.items() if not where.startswith("tables.engine")}
        assert outside == {}  # the service, the cache and the projector: none
        assert engine(folds) == appended  # the decider: each event once
    assert DealSummary.objects.get(table_id=table, deal_no=1).ended_at is not None
    assert TableView.objects.get(table_id=table).version == result.version


def test_the_projection_of_a_decided_command_equals_the_fold_of_its_stored_events(
    funded_player: Callable[..., int],
) -> None:  # DESIGN §2.5
    """Rows written from the decided state are the rows a rebuild (stored events folded) writes."""
    from ledger.projections import rebuild_all

    table, _ = open_table(funded_player, 3)
    service.table_command(table_id=table, command=cmd.StartDeal())
    while (deal := load_table(table).state.live) is not None:
        service.table_command(table_id=table, command=cmd.Declare(deal.awaiting[0], deal.deal_no, "in"))
    service.table_command(table_id=table, command=cmd.StartDeal())

    def rows() -> tuple[list[Any], ...]:
        return (
            list(TableView.objects.filter(table_id=table).values()),
            sorted(SeatView.objects.filter(table_id=table).values_list("player", "seat", "stack", "status")),
            list(DealSummary.objects.filter(table_id=table).order_by("deal_no").values()),
        )

    live = rows()
    rebuild_all()
    rebuilt = rows()
    strip = [{k: v for k, v in row.items() if k != "id"} for row in live[2]]
    assert live[0] == rebuilt[0]
    assert live[1] == rebuilt[1]
    assert strip == [{k: v for k, v in row.items() if k != "id"} for row in rebuilt[2]]


def test_the_runner_serves_tournaments_too() -> None:
    from tournaments import service as tournaments

    assert isinstance(tournaments.RUNNER, runner.CommandRunner)
    assert isinstance(service.RUNNER, runner.CommandRunner)
    assert tournaments.RUNNER.execute.__func__ is service.RUNNER.execute.__func__  # type: ignore[attr-defined]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the command path sends on this test's connection, message by message."""
    from http_edge import roundtrip
    from ledger import dbapi

    messages: list[str] = []
    first_statement, commit, execute = roundtrip.first_statement, dbapi.Message.commit, psycopg.Cursor.execute

    def recording_execute(cursor: psycopg.Cursor, *args: Any, **kwargs: Any) -> Any:
        if cursor.connection is connection.connection:
            messages.append("statement")
        return execute(cursor, *args, **kwargs)

    monkeypatch.setattr(
        roundtrip, "first_statement", lambda query: messages.append("BEGIN + lock") or first_statement(query)
    )
    monkeypatch.setattr(
        dbapi.Message, "commit", lambda message: messages.append("message + COMMIT") or commit(message)
    )
    monkeypatch.setattr(psycopg.Cursor, "execute", recording_execute)
    return messages


def test_a_command_on_the_fast_path_is_one_message(
    funded_player: Callable[..., int], sent: list[str]
) -> None:
    """Decided on the cached head: BEGIN, the append, the projections and the COMMIT together."""
    table, _ = open_table(funded_player, 3)
    service.table_command(table_id=table, command=cmd.StartDeal())
    deal = load_table(table).state.live
    assert deal is not None
    sent.clear()
    result = service.table_command(table_id=table, command=cmd.Declare(deal.awaiting[0], deal.deal_no, "in"))
    assert sent == ["message + COMMIT"]
    assert [e.version for e in result.events] == [e.version for e in read_stream(table_stream(table))][
        -len(result.events) :
    ]
    assert all(e.position > 0 for e in result.events)


def behind(table: str, command: Any) -> None:
    """Another process runs `command`; this process's cache still holds the table before it."""
    before = TABLES.cache.get(table)
    assert before is not None
    write_without_the_lock(table, command)
    TABLES.cache.clear()
    TABLES.cache.put(table, before)


def started(funded_player: Callable[..., int]) -> tuple[str, Any]:
    table, _ = open_table(funded_player, 3)
    service.table_command(table_id=table, command=cmd.StartDeal())
    deal = load_table(table).state.live
    assert deal is not None
    return table, deal


def test_a_cache_behind_the_log_is_refused_inside_the_transaction_and_retried_under_the_lock(
    funded_player: Callable[..., int], sent: list[str]
) -> None:
    table, deal = started(funded_player)
    first = deal.awaiting[0]
    behind(table, cmd.SitOut(next(p for p in deal.order if p != first)))  # from the next deal on
    moved = read_stream(table_stream(table))[-1].version
    sent.clear()
    result = service.table_command(table_id=table, command=cmd.Declare(first, deal.deal_no, "in"))
    assert sent[:3] == ["message + COMMIT", "BEGIN + lock", "statement"]  # refused; the lock, what it missed
    assert sent.count("BEGIN + lock") == 1
    events = read_stream(table_stream(table))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert [e.data["player"] for e in events if e.type == "Declared"] == [first]  # nothing twice
    assert result.events[0].version == moved + 1
    assert result.version == events[-1].version
    assert check_conservation() == []


def test_a_refusal_of_a_state_the_cache_holds_late_is_decided_again_under_the_lock(
    funded_player: Callable[..., int], sent: list[str]
) -> None:
    """On the cached state it is not his turn yet; on the log's it is: the command is played."""
    table, deal = started(funded_player)
    first = deal.awaiting[0]
    second = deal.order[(deal.order.index(first) + 1) % len(deal.order)]
    behind(table, cmd.Declare(first, deal.deal_no, "in"))
    sent.clear()
    service.table_command(table_id=table, command=cmd.Declare(second, deal.deal_no, "out"))
    assert sent == ["BEGIN + lock", "statement", "message + COMMIT"]  # the lock, the events it missed
    declared = [e.data["player"] for e in read_stream(table_stream(table)) if e.type == "Declared"]
    assert declared == [first, second]


def test_an_if_match_at_the_true_head_is_not_stale_when_the_cache_is_behind(
    funded_player: Callable[..., int],
) -> None:
    table, players = open_table(funded_player, 1)
    behind(table, cmd.SitDown(str(funded_player(5000)), 500))
    head = read_stream(table_stream(table))[-1].version
    result = service.table_command(
        table_id=table, command=cmd.SitDown(str(players[1]), 500), expected_version=head
    )
    assert result.events[0].version == head + 1
    with pytest.raises(StaleVersion):
        service.table_command(table_id=table, command=cmd.SitOut(str(players[1])), expected_version=head)


def test_an_overdraft_refused_with_the_commit_appends_nothing(funded_player: Callable[..., int]) -> None:
    """D-GEN-06: a buy-in above the bankroll is refused by the balance projection in the same
    message as the COMMIT; the transaction rolls back whole and the connection goes on."""
    from ledger.errors import DomainError

    table, _ = open_table(funded_player, 1)
    poor = funded_player(150)
    before = len(read_stream(table_stream(table)))
    with pytest.raises(DomainError) as refused:
        service.table_command(table_id=table, command=cmd.SitDown(str(poor), 500))
    assert refused.value.code == "insufficient_funds"
    assert len(read_stream(table_stream(table))) == before
    assert service.table_command(table_id=table, command=cmd.SitDown(str(poor), 100)).events
    assert check_conservation() == []
