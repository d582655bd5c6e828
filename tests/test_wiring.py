"""Explicit wiring (DESIGN §4): projectors, debt policies, after-commit hooks, event types and signal
receivers are registered by the apps' AppConfig.ready(), never as a side effect of importing a
module; so what runs inline with an append does not depend on which modules happen to be imported."""

from __future__ import annotations

import ast
from pathlib import Path

from django.db.models.signals import pre_delete

from ledger import inline, money, projections
from tables.projections import seat_may_owe

ROOT = Path(__file__).resolve().parents[1]
REGISTRARS = frozenset(
    {
        "register_projector",
        "register_debt_policy",
        "register_after_commit",
        "register_event_type",
        "set_inline_runner",
        "connect",
        "register_tables_projections",
        "register_timers",
        "register_deactivation",
        "register_tournament_projections",
        "register_process",
        "set_scheduler",
    }
)


def module_level_calls(tree: ast.Module) -> list[ast.Call]:
    """Calls that run when the module is imported (not inside a function or class body)."""
    calls: list[ast.Call] = []
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        calls += [node for node in ast.walk(statement) if isinstance(node, ast.Call)]
    return calls


def called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def test_no_module_registers_anything_when_imported() -> None:
    offenders = []
    for package in ("guts_backend", "http_edge", "ledger", "tables", "tournaments"):
        for path in (ROOT / package).rglob("*.py"):
            for call in module_level_calls(ast.parse(path.read_text())):
                if called_name(call) in REGISTRARS:
                    offenders.append(f"{path.relative_to(ROOT)}:{call.lineno} {called_name(call)}")
    assert offenders == []


def test_ready_wires_the_inline_projections_in_order() -> None:
    assert inline._runner is projections.run_inline
    names = [projector.name for projector in projections.registered_projectors()]
    # INSTALLED_APPS order: ledger first; the disputes' hold guard reads the balances, so it follows them
    assert names[:2] == ["ledger.balances", "ledger.disputes"]
    assert names[: names.index("tables.views")] == [
        "ledger.balances",
        "ledger.disputes",
        "ledger.player_names",
    ]


def test_ready_registers_the_seat_debt_policy_and_the_deletion_guard() -> None:
    assert money._debt_policies["seat"] is seat_may_owe  # D-GEN-06 allow_debt seats
    receivers = [receiver[0] for receiver in pre_delete.receivers]  # (lookup key, receiver, ...)
    assert any(key[0] == "ledger.deactivation.refuse_deleting_users_with_history" for key in receivers)


def test_ready_wires_the_tournaments_process() -> None:  # projector, hook, task scheduler
    from tables.service import registered_after_commit
    from tournaments import process, service, tasks

    assert "tournaments.views" in [projector.name for projector in projections.registered_projectors()]
    assert process.on_table_commit in registered_after_commit()
    assert service._scheduler[0] is tasks.schedule_after_commit
