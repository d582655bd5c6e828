"""A client generated from the served OpenAPI document plays a deal of two-card Guts against a real
server, so a schema change that breaks generated clients fails CI.

openapi-python-client (what a front-end developer would run) generates the client from
`GET /api/schema/` into a temporary folder; the test imports it and, through its typed models
only, opens a guts2 table, seats three players, plays a deal to its end (G2-05 antes, G2-08
declares in turn, G2-13 settlement), reads the typed results, the JSON and text histories, and a
refusal as a typed Problem. Every answer is parsed by the generated `from_dict`: a required field
the server omits, a value outside an enum, a union that matches nothing, all fail here.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from http_edge.roles import CLUB_ADMIN, grant_role
from http_edge.tokens import token_issue
from ledger.cashier import cashier_deposit, player_create
from tests.api.conftest import unique_name

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PACKAGE = "guts_generated_client"
CONFIG = "post_hooks: []\n"  # no ruff run over the generated code: it is imported, not kept


def served_schema(base_url: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base_url}/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture
def client_package(live_server: Any, tmp_path: Path) -> Iterator[ModuleType]:
    """The client openapi-python-client generates from the document the live server serves."""
    schema = tmp_path / "openapi.json"
    schema.write_text(json.dumps(served_schema(live_server.url)))
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG)
    out = tmp_path / PACKAGE
    generated = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(schema),
            "--output-path",
            str(out),
            "--meta",
            "none",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "Warning" not in generated.stdout + generated.stderr, generated.stdout + generated.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def api(package: ModuleType, module: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.api.{module}")


def model(package: ModuleType, name: str) -> Any:
    return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


def test_a_generated_client_plays_a_two_card_guts_deal(live_server: Any, client_package: ModuleType) -> None:
    pkg = client_package
    admin = get_user_model().objects.create_user(username=unique_name("admin"), password="pw-not-used")
    grant_role(admin, CLUB_ADMIN)
    players = [player_create(username=unique_name("gen"), password="gen-client-pw") for _ in range(3)]
    for player in players:
        cashier_deposit(player_id=player.pk, amount=1000)

    def client_of(user: Any) -> Any:
        return pkg.AuthenticatedClient(
            base_url=live_server.url,
            token=token_issue(user=user).key,
            prefix="Token",
            raise_on_unexpected_status=True,
        )

    house, seats = client_of(admin), {str(p.pk): client_of(p) for p in players}
    try:
        play_a_deal(pkg, house, seats)
    finally:  # no connection outlives the test (the live server's threads hold the database)
        for client in (house, *seats.values()):
            client.get_httpx_client().close()


def play_a_deal(pkg: ModuleType, house: Any, seats: dict[str, Any]) -> None:
    """Open a guts2 table, seat everyone, play deal 1 to its end and read it back, typed."""
    table_type, problem_type = model(pkg, "Table"), model(pkg, "Problem")

    variants = api(pkg, "tables.variants_list").sync(client=house)
    assert "guts2" in {variant.name for variant in variants}

    body = model(pkg, "TableOpenInputRequest").from_dict(
        {"variant": "guts2", "options": {"ante": 10, "min_buy_in": 100}}
    )
    opened = api(pkg, "tables.tables_create").sync(client=house, body=body)
    assert isinstance(opened, table_type), opened
    table_id = opened.table_id
    assert opened.status.value == "open"

    sit_down = api(pkg, "tables.tables_seats_create")
    for client in seats.values():
        view = api(pkg, "tables.tables_retrieve").sync(table_id, client=client)
        (offer,) = [a for a in view.legal_actions if a.action.value == "sit_down"]
        body = model(pkg, "SitDownInputRequest").from_dict({"buy_in": max(offer.min_, 300)})
        assert isinstance(sit_down.sync(table_id, client=client, body=body), table_type)

    first = next(iter(seats.values()))
    started = api(pkg, "tables.tables_deals_create").sync(
        table_id, client=first, body=model(pkg, "SeededInputRequest").from_dict({})
    )
    assert isinstance(started, table_type), started
    assert (started.phase.value, started.pot, started.deal_no) == ("declare", 30, 1)  # G2-05

    declare = api(pkg, "tables.tables_declares_create")
    later = next(player.player for player in started.deal.players if player.player not in started.turn)
    refused = declare.sync(  # G2-08: in turn only; the refusal parses as a typed Problem
        table_id,
        client=seats[later],
        body=model(pkg, "DeclareInputRequest").from_dict({"deal_no": 1, "choice": "in"}),
    )
    assert isinstance(refused, problem_type)
    assert (refused.status, refused.code.value) == (409, "not_your_turn")
    view = started
    for _ in range(10):
        if view.phase.value != "declare":
            break
        (turn,) = view.turn
        client = seats[turn]
        mine = api(pkg, "tables.tables_retrieve").sync(table_id, client=client)
        (action,) = [a for a in mine.legal_actions if a.action.value == "declare"]
        assert isinstance(action, model(pkg, "DeclareAction"))
        body = model(pkg, "DeclareInputRequest").from_dict({"deal_no": action.deal_no, "choice": "in"})
        view = declare.sync(table_id, client=client, body=body)
        assert isinstance(view, table_type), view
    assert view.phase.value == "between_deals"

    deal = view.deal
    assert deal.over
    assert deal.outcome is not None
    kinds = {type(result).__name__: result for result in deal.results}
    assert {"AntesPostedResult", "ShowdownHeldResult", "PotSettledResult"} <= set(kinds)
    shown = kinds["ShowdownHeldResult"].data.hands
    assert len(shown) == 3
    assert all(hand.value and hand.category for hand in shown)
    assert kinds["PotSettledResult"].data.outcome.value == deal.outcome.value
    stacks = sum(seat.stack for seat in view.seats)
    assert stacks + view.pot + view.reserve == 900  # chips conserved at the table (3 buy-ins of 300)

    history = api(pkg, "audit.tables_deals_history").sync(table_id, 1, client=first)
    assert history.deal_no == 1
    settled = [r for r in history.results if type(r).__name__ == "PotSettledResult"]
    assert [r.data.outcome.value for r in settled] == [deal.outcome.value]
    text = api(pkg, "audit.tables_deals_history_text").sync(table_id, 1, client=first)
    assert isinstance(text, str)
    assert text.startswith("Deal 1")

    deals = api(pkg, "deals.tables_deals_list").sync(table_id, client=first)
    assert [row.deal_no for row in deals.results] == [1]
