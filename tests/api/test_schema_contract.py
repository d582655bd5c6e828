"""The OpenAPI document is a strict contract a generated client can rely on: every closed set an
enum, ids and times formatted, no untyped property, legal actions and deal results as discriminated
unions, one integer width on every database, a summary on every operation, sections in order
(tables first), placeholders that render, and the text histories declared as text."""

from __future__ import annotations

import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from http_edge.api.schema import as_code
from tables.engine.decider import vocabulary
from tables.engine.decider.evolve import RESULTS
from tables.schema.actions import LEGAL_ACTIONS
from tables.schema.results import RESULT_DATA

TYPED = {"type", "$ref", "oneOf", "anyOf", "allOf", "enum"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def components(schema: dict[str, Any]) -> dict[str, Any]:
    return schema["components"]["schemas"]


def prop(schema: dict[str, Any], component: str, name: str) -> dict[str, Any]:
    """A property's schema, through a single `allOf` wrapper (how drf-spectacular adds a
    description to a reference)."""
    found = components(schema)[component]["properties"][name]
    return found["allOf"][0] if "allOf" in found and len(found["allOf"]) == 1 else found


def enum_of(schema: dict[str, Any], component: str, name: str) -> list[Any]:
    found = prop(schema, component, name)
    if "items" in found:
        found = found["items"]
    if "oneOf" in found:  # nullable: [the enum, NullEnum]
        found = next(option for option in found["oneOf"] if not option["$ref"].endswith("/NullEnum"))
    if "$ref" in found:
        found = components(schema)[found["$ref"].rsplit("/", 1)[1]]
    return found["enum"]


def test_no_property_is_untyped(schema: dict[str, Any]) -> None:
    untyped = [
        f"{name}.{field}"
        for name, component in components(schema).items()
        for field, definition in component.get("properties", {}).items()
        if not TYPED & set(definition)
    ]
    assert untyped == []


@pytest.mark.parametrize(
    ("component", "field", "values"),
    [
        ("Table", "phase", vocabulary.PHASES),
        ("Table", "status", vocabulary.TABLE_STATUSES),
        ("TableSummary", "phase", vocabulary.PHASES),
        ("TableDeal", "outcome", vocabulary.OUTCOMES),
        ("DealHistory", "outcome", vocabulary.OUTCOMES),
        ("TableDealPlayer", "declared", vocabulary.DECLARED),
        ("TableDeal", "mode", vocabulary.DECLARE_MODES),
        ("TableDeal", "trump", vocabulary.TRUMP_CHOICES),
        ("DeclareAction", "choices", vocabulary.DECLARE_CHOICES),
        ("BetAction", "choices", vocabulary.BET_CHOICES),
        ("TournamentDetail", "status", ("registering", "running", "cancelling", "complete", "cancelled")),
        ("TournamentSummary", "status", ("registering", "running", "cancelling", "complete", "cancelled")),
    ],
)
def test_closed_sets_are_enums(
    schema: dict[str, Any], component: str, field: str, values: tuple[str, ...]
) -> None:
    assert [v for v in enum_of(schema, component, field) if v is not None] == list(values)


@pytest.mark.parametrize(
    ("component", "field", "format_"),
    [
        ("Table", "table_id", "uuid"),
        ("Table", "tournament_id", "uuid"),
        ("TableSummary", "table_id", "uuid"),
        ("DealHistory", "table_id", "uuid"),
        ("TournamentDetail", "tournament_id", "uuid"),
        ("TournamentTable", "table_id", "uuid"),
        ("Table", "deadline", "date-time"),
        ("TableDeal", "deadline", "date-time"),
        ("DeclareAction", "deadline", "date-time"),
        ("TableSummary", "deadline", "date-time"),
    ],
)
def test_ids_and_times_are_formatted(
    schema: dict[str, Any], component: str, field: str, format_: str
) -> None:
    assert prop(schema, component, field)["format"] == format_


def test_ids_are_typed_as_the_paths_take_them(schema: dict[str, Any]) -> None:
    """docs/api.md, "Ids: one rule": UUIDs everywhere; a player id is an integer in a path and its
    decimal string in a response."""
    path_types = {
        parameter["name"]: parameter["schema"]
        for item in schema["paths"].values()
        for operation in item.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "path"
    }
    assert path_types["table_id"] == {"type": "string", "format": "uuid"}
    assert path_types["tournament_id"] == {"type": "string", "format": "uuid"}
    assert path_types["player_id"]["type"] == "integer"
    for component, field in [("TableSeat", "player"), ("TableDealPlayer", "player"), ("DealHand", "player")]:
        assert prop(schema, component, field) == {"type": "string", "pattern": "^[0-9]+$"} | {
            k: v for k, v in prop(schema, component, field).items() if k == "description"
        }


def test_legal_actions_are_a_union_discriminated_by_action(schema: dict[str, Any]) -> None:
    union = components(schema)["TableLegalAction"]
    assert union["discriminator"]["propertyName"] == "action"
    mapping = union["discriminator"]["mapping"]
    assert set(mapping) == set(vocabulary.ACTIONS) == set(LEGAL_ACTIONS)
    assert len(union["oneOf"]) == len(vocabulary.ACTIONS)
    for action, ref in mapping.items():
        variant = components(schema)[ref.rsplit("/", 1)[1]]
        assert "action" in variant["required"]
        assert enum_of(schema, ref.rsplit("/", 1)[1], "action") == [action]
    assert prop(schema, "Table", "legal_actions")["items"]["$ref"].endswith("/TableLegalAction")


def test_deal_results_are_a_union_discriminated_by_type(schema: dict[str, Any]) -> None:
    union = components(schema)["DealResult"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == {event.TYPE for event in RESULTS} == set(RESULT_DATA)
    hands = components(schema)["ShowdownHeldData"]["properties"]["hands"]
    assert hands["items"]["$ref"].endswith("/ShownHand")
    assert {"value", "category"} <= set(components(schema)["ShownHand"]["required"])


def test_integers_have_one_width_on_every_database(schema: dict[str, Any]) -> None:
    """Model-inferred integers take their range from the database (int32 on PostgreSQL, int64 on
    SQLite); the summaries declare theirs instead."""
    for field in ("buy_in", "fee", "entrants", "remaining", "level", "version"):
        definition = prop(schema, "TournamentSummary", field)
        assert definition["type"] == "integer"
        assert "format" not in definition
        assert "maximum" not in definition


def test_every_operation_has_a_summary(schema: dict[str, Any]) -> None:
    missing = [
        operation["operationId"]
        for item in schema["paths"].values()
        for operation in item.values()
        if not operation.get("summary")
    ]
    assert missing == []


def test_sections_open_on_the_tables(schema: dict[str, Any]) -> None:
    names = [tag["name"] for tag in schema["tags"]]
    assert names[0] == "tables"
    used = {
        tag for item in schema["paths"].values() for operation in item.values() for tag in operation["tags"]
    }
    assert used <= set(names)
    first = next(iter(schema["paths"].values()))
    assert next(iter(first.values()))["tags"] == ["tables"]


def test_placeholders_render(schema: dict[str, Any]) -> None:
    """No `<placeholder>` outside a code span in any description: Markdown would drop it as a tag."""
    texts: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("description", "summary") and isinstance(value, str):
                    texts.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(schema)
    bare = [t for t in texts if re.search(r"<\w", re.sub(r"`[^`]*`", "", t))]
    assert bare == []
    assert any("`player:<id>`" in t for t in texts)
    assert as_code("cashier -> player:<id>.") == "cashier -> `player:<id>`."


def test_text_histories_are_declared_as_text(schema: dict[str, Any]) -> None:
    for path in (
        "/api/v1/tables/{table_id}/history.txt",
        "/api/v1/tables/{table_id}/deals/{deal_no}/history.txt",
    ):
        assert set(schema["paths"][path]["get"]["responses"]["200"]["content"]) == {"text/plain"}
    deal = schema["paths"]["/api/v1/tables/{table_id}/deals/{deal_no}/history"]["get"]["responses"]["200"]
    assert list(deal["content"]) == ["application/json", "text/plain"]  # JSON first: what clients decode
    assert deal["content"]["application/json"]["schema"]["$ref"].endswith("/HandHistory")
