"""The import contracts of pyproject.toml ([tool.importlinter], DESIGN §4) hold, and each one is strict
enough to break when its rule is broken: every test below adds one forbidden import to the real
import graph and expects the contract to fail. `make test` also runs `lint-imports` itself.

django.http cannot be told apart from the rest of Django by import-linter (it sees `django` as one
node), so the last test checks it from the same graph: only the modules the `http-at-the-edge`
contract lets import DRF may import it.
"""

from __future__ import annotations

import re
from copy import deepcopy
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.api import read_configuration
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.protected import ProtectedContract
from importlinter.domain.contract import Contract

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
CONTRACT_TYPES: dict[str, type[Contract]] = {
    cls.type_name: cls for cls in (ForbiddenContract, ProtectedContract, AcyclicSiblingsContract)
}
CONTRACT_IDS = (
    "pure-engine",
    "pure-tournament-engine",
    "ledger-below-tables",
    "tables-below-tournaments",
    "edge-below-the-apps",
    "apps-below-the-root",
    "no-cycles",
    "http-at-the-edge",
)
DJANGO_HTTP = re.compile(r"\bdjango\.http\b|from django import .*\bhttp\b")


@pytest.fixture(scope="module")
def config() -> dict[str, Any]:
    return read_configuration(str(PYPROJECT))


@pytest.fixture(scope="module")
def graph(config: dict[str, Any]) -> grimp.ImportGraph:
    session = config["session_options"]
    return grimp.build_graph(
        *session["root_packages"],
        include_external_packages=True,
        exclude_type_checking_imports=True,
        cache_dir=None,
    )


def contract(config: dict[str, Any], contract_id: str) -> Contract:
    [options] = [options for options in config["contracts_options"] if options["id"] == contract_id]
    return CONTRACT_TYPES[options["type"]](
        name=options["name"], session_options=config["session_options"], contract_options=options
    )


def kept(
    config: dict[str, Any], graph: grimp.ImportGraph, contract_id: str, *extra_imports: tuple[str, str]
) -> bool:
    """Whether the contract holds on the real graph plus `extra_imports` (importer, imported)."""
    graph = deepcopy(graph)
    for importer, imported in extra_imports:
        graph.add_import(
            importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}"
        )
    return contract(config, contract_id).check(graph, verbose=False).kept


def test_the_contracts_are_the_ones_tested_here(config: dict[str, Any]) -> None:
    assert {options["id"] for options in config["contracts_options"]} == set(CONTRACT_IDS)


@pytest.mark.parametrize("contract_id", CONTRACT_IDS)
def test_every_contract_is_kept(config: dict[str, Any], graph: grimp.ImportGraph, contract_id: str) -> None:
    assert kept(config, graph, contract_id)


@pytest.mark.parametrize(
    "violation",
    [
        ("tables.engine.deck", "django"),  # Django in the engine
        ("tables.engine.decider.decide", "ledger.money"),  # the ledger beyond ledger.accounts
        ("tables.engine.variants", "tables.state"),  # the Django side of tables (-> ledger.store)
        ("ledger.accounts", "django"),  # the shared module, no longer pure
    ],
)
def test_the_engine_stays_pure(
    config: dict[str, Any], graph: grimp.ImportGraph, violation: tuple[str, str]
) -> None:
    assert not kept(config, graph, "pure-engine", violation)


@pytest.mark.parametrize(
    "violation",
    [
        ("tournaments.engine.decide", "django"),  # Django in the tournament decider
        ("tournaments.engine.config", "tables.state"),  # the Django side of tables
        ("tournaments.engine.places", "ledger.money"),  # the ledger beyond ledger.accounts
    ],
)
def test_the_tournament_engine_stays_pure(
    config: dict[str, Any], graph: grimp.ImportGraph, violation: tuple[str, str]
) -> None:
    assert not kept(config, graph, "pure-tournament-engine", violation)


def test_tables_know_nothing_of_tournaments(config: dict[str, Any], graph: grimp.ImportGraph) -> None:
    violation = ("tables.service", "tournaments.engine.decide")
    assert not kept(config, graph, "tables-below-tournaments", violation)
    assert not kept(config, graph, "ledger-below-tables", ("ledger.store", "tournaments.engine.decide"))


@pytest.mark.parametrize(
    "violation",
    [
        ("ledger.cashier", "tables.service"),
        ("ledger.api.views", "guts_backend.handlers"),  # indirectly: the handler knows the engine
    ],
)
def test_the_ledger_knows_nothing_of_tables(
    config: dict[str, Any], graph: grimp.ImportGraph, violation: tuple[str, str]
) -> None:
    assert not kept(config, graph, "ledger-below-tables", violation)


@pytest.mark.parametrize(
    "violation",
    [
        ("http_edge.idempotency", "ledger.dbapi"),  # the edge on top of an app
        ("http_edge.roles", "tables.selectors"),
        ("http_edge.api.errors", "tournaments.engine.errors"),
        ("http_edge.tokens", "guts_backend.settings"),  # the edge on top of the composition root
    ],
)
def test_the_edge_knows_nothing_of_the_apps(
    config: dict[str, Any], graph: grimp.ImportGraph, violation: tuple[str, str]
) -> None:
    assert not kept(config, graph, "edge-below-the-apps", violation)


@pytest.mark.parametrize(
    "violation",
    [
        ("ledger.tasks", "guts_backend.celery"),  # a task module that needs the Celery app itself
        ("tables.api.views", "guts_backend.handlers"),
        ("tournaments.service", "guts_backend.management.commands.seed_demo"),
    ],
)
def test_the_apps_know_nothing_of_the_composition_root(
    config: dict[str, Any], graph: grimp.ImportGraph, violation: tuple[str, str]
) -> None:
    assert not kept(config, graph, "apps-below-the-root", violation)


def test_the_store_and_the_projections_do_not_import_each_other(
    config: dict[str, Any], graph: grimp.ImportGraph
) -> None:
    assert graph.direct_import_exists(importer="ledger.projections", imported="ledger.store")
    assert not kept(config, graph, "no-cycles", ("ledger.store", "ledger.projections"))


@pytest.mark.parametrize(
    "violation",
    [
        ("tables.service", "rest_framework"),  # a service that knows DRF
        ("ledger.selectors", "drf_spectacular"),
        ("ledger.cashier", "http_edge.idempotency"),  # indirectly, through an HTTP module
        ("tables.selectors", "tables.api.views"),
    ],
)
def test_http_stays_at_the_edge(
    config: dict[str, Any], graph: grimp.ImportGraph, violation: tuple[str, str]
) -> None:
    assert not kept(config, graph, "http-at-the-edge", violation)


def test_only_the_http_modules_import_django_http(config: dict[str, Any], graph: grimp.ImportGraph) -> None:
    [edge] = [options for options in config["contracts_options"] if options["id"] == "http-at-the-edge"]
    allowed = set(edge["allowed_importers"])
    assert set(edge["protected_modules"]) == allowed | {"rest_framework", "drf_spectacular"}

    def in_edge(module: str) -> bool:
        return any(module == name or module.startswith(f"{name}.") for name in allowed)

    http_users = {
        module
        for module in graph.find_modules_that_directly_import("django")
        if any(
            DJANGO_HTTP.search(detail["line_contents"])
            for detail in graph.get_import_details(importer=module, imported="django")
        )
    }
    assert "guts_backend.handlers" in http_users
    assert {module for module in http_users if not in_edge(module)} == set()
