"""DESIGN §2.2: a step kind's state slot is its own. The slot (a named tuple in
`DealState.slots`) is declared in the kind's module, and only that module names it or reads and
writes it (`slot_of`, `with_slot` with its own kind's name): checked on the source of every
module, and shown to catch each way of breaking the rule."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tables.engine.decider.steps import KINDS, StepKind

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("tables", "ledger", "tournaments", "guts_backend", "http_edge")
ACCESSORS = frozenset({"slot_of", "with_slot"})


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def sources() -> dict[str, str]:
    return {
        module_of(path): path.read_text()
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }


def _constants(tree: ast.Module) -> dict[str, object]:
    found: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def violations(modules: dict[str, str], kinds: dict[str, StepKind]) -> list[str]:
    """Every place a slot is declared, named or touched by a module that is not its kind's."""
    owner = {kind.slot.__name__: kind for kind in kinds.values() if kind.slot is not None}
    home = {name: kind.slot.__module__ for name, kind in owner.items() if kind.slot is not None}
    kind_of_module = {
        kind.run.__module__: kind.name for kind in kinds.values()
    }  # a kind's module is where its run is
    found: list[str] = []
    for name, kind in owner.items():
        if home[name] != kind.run.__module__:
            found.append(f"{name} is declared in {home[name]}, not in its kind's module")
    for module, text in modules.items():
        tree = ast.parse(text)
        constants = _constants(tree)
        own = kind_of_module.get(module)
        for node in ast.walk(tree):
            named = (
                node.id
                if isinstance(node, ast.Name)
                else node.attr
                if isinstance(node, ast.Attribute)
                else None
            )
            if named in owner and home[named] != module:
                found.append(f"{module} names {named}, the slot of {owner[named].name}")
            if isinstance(node, ast.alias) and node.name in owner and home[node.name] != module:
                found.append(f"{module} imports {node.name}, the slot of {owner[node.name].name}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ACCESSORS:
                arg = node.args[1] if len(node.args) > 1 else None
                value = constants.get(arg.id) if isinstance(arg, ast.Name) else None
                if own is None or value != own:
                    found.append(f"{module} calls {node.func.id} on a slot that is not its own")
    return found


def test_every_kinds_slot_is_its_own() -> None:
    assert [kind.name for kind in KINDS.values() if kind.slot is not None]  # the rule has subjects
    assert violations(sources(), dict(KINDS)) == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("tables.engine.decider.view", "from tables.engine.decider.steps.escalation import EscalationSlot\n"),
        (
            "tables.projections",
            "def f(deal):\n    return deal.slots['escalation']._replace(x=EscalationSlot())\n",
        ),
        (
            "tables.engine.decider.steps.declare",
            "NAME = 'declare'\ndef f(deal):\n    return slot_of(deal, 'escalation', None)\n",
        ),
        ("tables.engine.decider.decide", "def f(deal, slot):\n    return with_slot(deal, 'tricks', slot)\n"),
    ],
)
def test_the_check_catches_a_module_that_touches_another_kinds_slot(module: str, source: str) -> None:
    modules = {**sources(), module: source}
    assert violations(modules, dict(KINDS))
