"""A tournament's table options are validated at creation exactly as its tables will validate them
when they open (D-GEN-06: no credit, and no end_on_empty_pot, at a tournament table), so a
tournament that could never start is refused with 400 `invalid_option` before it takes a buy-in.

The property compares the two decisions directly: for options drawn from every variant's catalogue
(valid and invalid values alike), creating the tournament is refused, with the same code, exactly
when opening one of its tables (`OpenTable(tournament_id=...)`) is refused.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from http_edge.roles import CLUB_ADMIN, grant_role
from ledger.models import Event
from tables.engine.decider.commands import OpenTable
from tables.engine.decider.decide import decide as table_decide
from tables.engine.decider.errors import DomainError
from tables.engine.decider.state import initial_state
from tables.engine.variants import VARIANTS, Option
from tournaments.engine.config import config_from_input, table_options

from .conftest import tournament_fields
from .test_api import client_for

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
TOURNAMENT = "2b1f6a0e-7c55-4a53-9a4e-1d5c0b7e2f10"
REFUSED_AT_TOURNAMENT_TABLES = [
    {"stack_policy": "allow_debt"},
    {"end_on_empty_pot": True},
    {"stack_policy": "allow_debt", "end_on_empty_pot": True},
]


def open_refusal(variant: str, options: dict[str, Any]) -> str | None:
    """The code a tournament table with these options refuses to open with (None: it opens)."""
    command = OpenTable("6f1c0c52-0000-4000-8000-000000000000", variant, options, tournament_id=TOURNAMENT)
    try:
        table_decide(initial_state(), command, NOW)
    except DomainError as error:
        return error.code
    return None


def creation_refusal(
    variant: str, given: dict[str, Any], seats: int, ante: int
) -> tuple[str | None, dict[str, Any]]:
    try:
        return None, table_options(variant, given, seats, ante)
    except DomainError as error:
        return error.code, {}


def option_values(option: Option) -> st.SearchStrategy[Any]:
    """Every valid value of an option and a few invalid ones."""
    if option.type == "bool":
        return st.sampled_from([True, False, 1, "yes"])
    if option.type == "choice":
        return st.sampled_from([*option.choices, "bogus"])
    low = option.minimum if option.minimum is not None else 0
    high = option.maximum if option.maximum is not None else 10**6
    return st.one_of(st.integers(low, min(high, low + 200)), st.sampled_from([low - 1, "5", 2.5]))


@st.composite
def tournament_options(draw: st.DrawFn) -> tuple[str, dict[str, Any], int, int]:
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    choices = [o for o in VARIANTS[variant].options if o.name not in ("seats", "ante")]
    picked = draw(st.lists(st.sampled_from(choices), max_size=4, unique_by=lambda o: o.name))
    options = {o.name: draw(option_values(o)) for o in picked}
    return variant, options, draw(st.integers(2, 8)), draw(st.sampled_from([1, 5, 20]))


@settings(max_examples=300, deadline=None)
@given(tournament_options())
def test_creation_refuses_exactly_what_the_tables_refuse(case: tuple[str, dict[str, Any], int, int]) -> None:
    variant, given_options, seats, ante = case  # D-GEN-06, D-GEN-02
    refused, validated = creation_refusal(variant, given_options, seats, ante)
    # What the tournament's tables would be asked to open with: the caller's options and its own.
    asked = {**given_options, "seats": seats, "ante": ante}
    if "min_buy_in" not in given_options:
        asked["min_buy_in"] = max(ante, ante * VARIANTS[variant].min_buy_in_antes)
    assert refused == open_refusal(variant, asked)
    if refused is None:
        assert open_refusal(variant, validated) is None  # the recorded options open a table too


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("options", REFUSED_AT_TOURNAMENT_TABLES)
def test_options_a_tournament_table_refuses_are_refused_by_the_config(
    variant: str, options: dict[str, Any]
) -> None:
    fields = tournament_fields(variant=variant, options=options, seats_per_table=4)
    with pytest.raises(DomainError) as refused:
        config_from_input(fields)
    assert refused.value.code == "invalid_option"


@pytest.fixture
def admin(db: Any) -> APIClient:
    user = get_user_model().objects.create_user(username="options-admin", password="pw-not-used")
    grant_role(user, CLUB_ADMIN)
    return client_for(user)


@pytest.mark.parametrize("options", REFUSED_AT_TOURNAMENT_TABLES)
def test_creation_with_an_option_its_tables_refuse_is_400_invalid_option(
    options: dict[str, Any], admin: APIClient
) -> None:
    before = Event.objects.count()
    response = admin.post("/api/v1/tournaments", tournament_fields(options=options), format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid_option"
    assert Event.objects.count() == before
