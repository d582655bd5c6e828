"""A step kind's HTTP edge is its one module of tables.api.actions (DESIGN §2.2): the kinds name
their legal actions, the closed set of actions is derived from them, and each action's module
routes its command and describes the legal action, so nothing else lists a kind's action."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.urls import resolve, reverse
from rest_framework import serializers

from tables.api.actions import ACTION_VIEWS
from tables.api.actions.escalations import EscalationsApi
from tables.engine.decider import vocabulary
from tables.engine.decider.steps import KINDS, StepKind
from tables.engine.decider.steps.base import Ctx
from tables.schema.actions import LEGAL_ACTIONS, TABLE_ACTIONS, action_of, legal_actions


def test_every_action_a_kind_names_has_one_routed_command() -> None:
    by_action = {action_of(view.LegalActionSerializer): view for view in ACTION_VIEWS}
    assert len(by_action) == len(ACTION_VIEWS)
    named = {action for kind in KINDS.values() for action in kind.actions}
    assert set(by_action) == named
    table_id = uuid.uuid4()
    for view in ACTION_VIEWS:
        url = reverse(f"table-{view.route}", kwargs={"table_id": table_id})
        assert url == f"/api/v1/tables/{table_id}/{view.route}"
        assert resolve(url).func.view_class is view  # type: ignore[attr-defined]


def test_the_closed_set_of_actions_is_the_tables_own_and_the_kinds() -> None:
    assert vocabulary.ACTIONS[: len(vocabulary.TABLE_ACTIONS)] == vocabulary.TABLE_ACTIONS
    assert set(vocabulary.TABLE_ACTIONS) == set(TABLE_ACTIONS)
    assert set(legal_actions()) == set(vocabulary.ACTIONS) == set(LEGAL_ACTIONS)
    for action, schema in LEGAL_ACTIONS.items():
        assert action_of(schema) == action


def _offers_a_hop(ctx: Ctx[Any], player: str) -> list[dict[str, Any]]:
    return [{"action": "hop"}]


def test_a_new_kinds_action_joins_the_closed_set_from_its_module() -> None:
    hop = StepKind(name="hop", run=lambda ctx: [], offers=_offers_a_hop, actions=("hop",))
    assert vocabulary.actions_of([*KINDS.values(), hop]) == (*vocabulary.ACTIONS, "hop")
    assert vocabulary.actions_of([hop, hop]) == (*vocabulary.TABLE_ACTIONS, "hop")


def test_a_kind_that_offers_actions_names_them() -> None:
    with pytest.raises(ValueError, match="names them"):
        StepKind(name="hop", run=lambda ctx: [], offers=_offers_a_hop)


def test_the_escalations_edge_is_its_module() -> None:
    """Thirty Eight's escalation, the worked example of docs/variants.md: its route, body, command
    and the legal action it answers are all declared on its view."""
    assert EscalationsApi.route == "escalations"
    assert action_of(EscalationsApi.LegalActionSerializer) == "escalate"
    assert issubclass(EscalationsApi.InputSerializer, serializers.Serializer)
    assert "escalate" in KINDS["escalation"].actions
    assert LEGAL_ACTIONS["escalate"] is EscalationsApi.LegalActionSerializer


def test_the_deal_view_keys_a_kind_adds_are_documented_by_its_module_in_table_deal() -> None:
    """`deal.escalation` (T38-03) is described by the escalation's edge and TableDeal takes it;
    every module's keys join TableDeal once, beside the keys every deal has."""
    from tables.api.serializers import DealSerializer
    from tables.schema.deal_view import DEAL_VIEW_FIELDS

    fields = DealSerializer().fields
    assert DEAL_VIEW_FIELDS["escalation"] is EscalationsApi.deal_view["escalation"]
    assert fields["escalation"].allow_null
    declared = [key for view in ACTION_VIEWS for key in view.deal_view]
    assert len(declared) == len(set(declared))
    assert set(declared) == set(DEAL_VIEW_FIELDS) <= set(fields)
    assert {"deal_no", "players", "results", "ghost", "sides"} <= set(fields) - set(declared)


def test_a_live_deal_view_has_exactly_the_keys_table_deal_documents() -> None:
    """The engine's deal view of a game whose kinds add keys: each key is a TableDeal field."""
    from tables.api.serializers import DealSerializer
    from tables.engine.decider.view import table_view
    from tables.engine.decider.visibility import Viewer
    from tests.engine.decider.helpers import T0, start, table

    session = table("abc", variant="thirty_eight")
    start(session)
    deal = table_view(session.state, Viewer(), T0)["deal"]
    assert set(deal) == set(DealSerializer().fields)
