"""HTTP lives at the edge: services and selectors raise domain errors without a status; the one map
(http_edge.api.errors.PROBLEM_STATUS) gives every code its status, and the handler renders any
of them as problem+json."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ledger.money  # noqa: F401  (its domain errors, for the subclass walk)
import tables.errors  # noqa: F401
from guts_backend.handlers import problem_exception_handler
from http_edge.api.errors import PROBLEM_CONTENT_TYPE, PROBLEM_STATUS, Problem
from ledger.errors import DomainError
from tables.engine.decider import errors as rules
from tables.errors import StaleVersion, UnknownTable

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("guts_backend", "http_edge", "ledger", "tables")
SOURCES = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]


def subclasses(cls: type) -> set[type]:
    return {sub for direct in cls.__subclasses__() for sub in {direct, *subclasses(direct)}}


def test_every_domain_error_code_has_a_status() -> None:
    codes = {error.code for error in subclasses(DomainError)}
    assert {"unknown_player", "unknown_table", "stale_version", "insufficient_funds"} <= codes
    assert codes - set(PROBLEM_STATUS) == set()


def test_every_problem_the_http_layer_raises_has_a_status() -> None:
    raised = {code for path in SOURCES for code in re.findall(r'Problem\(\s*"(\w+)"', path.read_text())}
    assert {"forbidden", "stale_version", "invalid_idempotency_key"} <= raised
    assert raised - set(PROBLEM_STATUS) == set()


def test_no_service_or_selector_names_an_http_status() -> None:
    """Only the API package sets statuses; a `status=` next to an error code elsewhere is a regression."""
    offenders = [
        str(path.relative_to(ROOT))
        for path in SOURCES
        if re.search(r"(Problem|Error|Denied|Conflict)\([^)]*\bstatus=\d", path.read_text())
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("error", "status", "body"),
    [
        (UnknownTable("nope"), 404, {"code": "unknown_table", "detail": "No table nope."}),
        (StaleVersion(10, 12), 412, {"code": "stale_version", "current_version": 12}),
        (
            rules.DomainError("not_seated", "7 is not seated", player="7"),
            403,
            {"code": "not_seated", "player": "7"},
        ),
        (Problem("idempotency_key_reused", "used"), 422, {"code": "idempotency_key_reused"}),
    ],
)
def test_the_handler_renders_every_kind_of_error_as_its_mapped_status(
    error: Exception, status: int, body: dict
) -> None:
    response = problem_exception_handler(error, {})
    assert response.status_code == status
    assert response.content_type == PROBLEM_CONTENT_TYPE
    assert body.items() <= response.data.items()
    assert response.data["type"] == f"/problems/{body['code']}"


def test_details_never_overwrite_the_problem_members() -> None:
    response = problem_exception_handler(rules.DomainError("deal_over", "deal 3 is over", status=200), {})
    assert (response.status_code, response.data["status"]) == (409, 409)
