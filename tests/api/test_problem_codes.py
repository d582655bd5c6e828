"""Error codes are one StrEnum at the edge (`ProblemCode`): the status map and the schema's
`Problem.code` enum derive from it, and every code an engine or a service can raise is a member
(the engines' own StrEnums, the services' error classes), with its string kept exactly."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

import ledger.money  # noqa: F401  (its domain errors, for the subclass walk)
import tables.errors  # noqa: F401
import tournaments.errors  # noqa: F401
from http_edge.api.errors import PROBLEM_STATUS, ProblemCode, problem_responses, status_of
from ledger.errors import DomainError
from tables.engine.decider.errors import CODES as RULE_CODES
from tables.engine.decider.errors import DomainError as RulesError
from tables.engine.decider.errors import RuleCode
from tournaments.engine.errors import CODES as TOURNAMENT_CODES
from tournaments.engine.errors import TournamentCode


def subclasses(cls: type) -> set[type]:
    return {sub for direct in cls.__subclasses__() for sub in {direct, *subclasses(direct)}}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def test_every_engine_code_is_a_problem_code() -> None:
    assert set(RuleCode) - set(ProblemCode) == set()
    assert set(TournamentCode) - set(ProblemCode) == set()
    assert (frozenset(RuleCode), frozenset(TournamentCode)) == (RULE_CODES, TOURNAMENT_CODES)


def test_every_service_error_code_is_a_problem_code() -> None:
    codes = {error.code for error in subclasses(DomainError)}
    assert {"unknown_player", "unknown_table", "unknown_tournament", "stale_version"} <= codes
    assert codes - set(ProblemCode) == set()


def test_the_status_map_is_the_enum() -> None:
    assert set(PROBLEM_STATUS) == {code.value for code in ProblemCode}
    for code in ProblemCode:
        assert PROBLEM_STATUS[code.value] == (code.status, code.example)
        assert status_of(code.value) == code.status
        assert 400 <= code.status < 600
        assert code.example
    assert status_of("a_code_nobody_knows") == 409


def test_codes_keep_their_strings() -> None:
    assert ProblemCode.NOT_YOUR_TURN == RuleCode.NOT_YOUR_TURN == "not_your_turn"
    assert (ProblemCode.STALE_VERSION.status, ProblemCode.NOT_SEATED.status) == (412, 403)
    assert str(ProblemCode.INVALID_TOURNAMENT) == TournamentCode.INVALID_TOURNAMENT.value
    error = RulesError(RuleCode.DEAL_OVER, "deal 3 is over")
    assert type(error.code) is str
    assert error.code == "deal_over"


def test_the_schema_enumerates_every_problem_code(schema: dict[str, Any]) -> None:
    code = schema["components"]["schemas"]["Problem"]["properties"]["code"]
    ref = code.get("$ref") or code["allOf"][0]["$ref"]
    assert ref == "#/components/schemas/ProblemCode"
    enum = schema["components"]["schemas"]["ProblemCode"]["enum"]
    assert enum == [code.value for code in ProblemCode]


def test_each_operations_problems_are_grouped_by_the_enums_status() -> None:
    responses = problem_responses("not_your_turn", "not_seated", "unknown_table")
    assert sorted(responses) == [
        (403, "application/problem+json"),
        (404, "application/problem+json"),
        (409, "application/problem+json"),
    ]
    with pytest.raises(ValueError, match="not_a_code"):
        problem_responses("not_a_code")
