"""The durable process (docs/tournaments.md): a crash between a table's commit
and the reaction, or inside the reaction, loses nothing and doubles nothing; the after-commit hook
and the sweeper both drive the same idempotent reconcile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ledger import runner
from ledger.store import StreamWrite, count_events, read_stream
from tables.state import load_table, table_stream
from tournaments import process, service, tasks

from .test_tournament import Run, best_and

pytestmark = pytest.mark.django_db


def one_table_with_a_bust(funded_player: Callable[..., int]) -> tuple[Run, str, str]:
    """Four entrants with 20 chips at one table; deal 1 ends with one of them at 0 (the table's
    commit), and nothing has reacted yet."""
    run = Run(funded_player, players=4, starting_chips=20)
    [table] = run.state.tables
    run.tick(0)
    deal = run.play(table, best_and(1)).deal  # antes 20; the second hand pays 15, all
    busted = deal.order[1]
    assert load_table(table).state.stack_of(busted) == 0
    return run, table, busted


def eliminations(run: Run) -> list[Any]:
    return [e for e in run.stream() if e.type == "EntrantsEliminated"]


def removals(table: str) -> list[Any]:
    return [e for e in read_stream(table_stream(table)) if e.type == "EntrantRemoved"]


def test_a_crash_before_the_reaction_and_inside_it_ends_in_exactly_one_reaction(
    funded_player: Callable[..., int], monkeypatch: pytest.MonkeyPatch
) -> None:
    run, table, busted = one_table_with_a_bust(funded_player)
    assert eliminations(run) == []  # the process died after the table's commit

    append = runner.append

    def crash(writes: list[StreamWrite], **kwargs: Any) -> object:
        if any(write.stream.startswith("tournament-") for write in writes):
            raise RuntimeError("the worker died before the tournament's append")
        return append(writes, **kwargs)

    monkeypatch.setattr(runner, "append", crash)
    before = count_events()
    with pytest.raises(RuntimeError):
        run.tick()
    assert count_events() == before  # the table's RemoveEntrant rolled back too
    assert removals(table) == []
    monkeypatch.undo()

    run.tick()  # the sweeper's tick, later
    run.tick()  # and again: nothing more
    run.tick()
    [out] = eliminations(run)
    assert [p["player"] for p in out.data["placings"]] == [busted]
    assert [e.data["player"] for e in removals(table)] == [busted]
    assert [e.data["deal_no"] for e in run.stream() if e.type == "DealProcessed"] == [1]


def test_the_sweeper_reacts_to_a_deal_nobody_reacted_to(funded_player: Callable[..., int]) -> None:
    run, _, busted = one_table_with_a_bust(funded_player)
    assert tasks.sweep() > 0  # beat's task, on the real clock
    assert [p["player"] for e in eliminations(run) for p in e.data["placings"]] == [busted]
    tasks.sweep()
    assert len(eliminations(run)) == 1


def test_the_after_commit_hook_ticks_the_tournament_of_a_table_whose_deal_ended(
    funded_player: Callable[..., int],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[str] = []
    monkeypatch.setattr(tasks, "send_tick", lambda tournament_id, eta=None: sent.append(tournament_id))
    run = Run(funded_player, players=4, starting_chips=20)
    [table] = run.state.tables
    run.tick(0)
    settings.GUTS_TOURNAMENT_TASKS = True
    with django_capture_on_commit_callbacks(execute=True):
        run.play(table, best_and(1))
    assert sent == [run.tid]  # once: only the declare that ended it
    assert process.tournament_of(table) == run.tid


def test_late_registration_seats_the_entrant_until_its_level_ends(funded_player: Callable[..., int]) -> None:
    from datetime import timedelta

    from ledger.money import balance
    from tournaments.engine.errors import DomainError

    from .conftest import T0

    run = Run(funded_player, players=4, late_registration_level=1, max_entrants=6)
    [table] = run.state.tables
    late = funded_player(1000)
    result = service.tournament_register(
        tournament_id=run.tid, player_id=late, now=T0 + timedelta(seconds=30)
    )
    assert result.state.seats[str(late)] == table  # seated at once: the table is between deals
    assert load_table(table).state.stack_of(str(late)) == 100
    assert balance(f"prizepool:{run.tid}") == 500
    too_late = funded_player(1000)
    with pytest.raises(DomainError) as refused:  # level 1 ended at T0 + 1 minute
        service.tournament_register(tournament_id=run.tid, player_id=too_late, now=T0 + timedelta(minutes=1))
    assert refused.value.code == "registration_closed"
    with pytest.raises(DomainError) as no_refund:  # unregistering after the start
        service.tournament_unregister(tournament_id=run.tid, player_id=late, now=T0 + timedelta(seconds=40))
    assert no_refund.value.code == "registration_closed"


def test_the_seating_is_proven_by_docs_verify_deal(funded_player: Callable[..., int], tmp_path: Any) -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    from django.utils import timezone

    from tournaments.selectors import tournament_detail

    verifier = Path(__file__).resolve().parents[2] / "docs" / "verify_deal.py"
    run = Run(funded_player)
    detail = tournament_detail(tournament_id=run.tid, now=timezone.now())
    seated = [[seat["player"] for seat in table["seats"]] for table in detail["tables"]]
    order = detail["seating"]["order"]
    assert seated == [order[0::2], order[1::2]]  # entrant i at table i mod 2
    assert sum(row["chips"] for row in detail["standings"]) == 12 * 100
    assert {row["status"] for row in detail["standings"]} == {"playing"}
    assert detail["prize_pool"] == 1200
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(detail, default=str))
    checked = subprocess.run(
        [sys.executable, str(verifier), "--seating", str(path)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    detail["seating"]["order"] = [*order[1:], order[0]]
    path.write_text(json.dumps(detail, default=str))
    forged = subprocess.run(
        [sys.executable, str(verifier), "--seating", str(path)], capture_output=True, text=True, check=False
    )
    assert forged.returncode == 1
