"""The redaction walk over the ghost hand (GH-02, GH-03, D-GH-03): after every command
every role (each seated player, a player never seated, a club admin, an auditor) reads every deal
endpoint (the table, its deal summaries and each player's, the event feed, the SSE stream, each
deal's replay, proof and hand history as JSON and text, the table's history downloads, the audit
log) with tests/audit/test_games_redaction.py's machinery, the ghost being one more holder ("g")
whom no reader is:

- the ghost's cards appear in no answer to anyone before a showdown it plays shows them (GH-03),
  nor ever to a player or an admin when it did not play (everyone out; GH-08 with two "in");
- once shown they are there for every reader, and an auditor sees every ghost once its deal is
  over (the GhostDealt event, the proof's dealing order);
- GET /tables/{id} shows `deal.ghost.cards` exactly when the reader may see them.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from tests.audit.test_games_redaction import (
    SSE,
    DealTruth,
    Reader,
    Step,
    decks_of,
    read,
    start,
    walk,
)
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

GHOST = "ghost"  # the ghost's holder name in DealTruth (no player id is a word)

# GH-07: the ghost beats both "in" players (GH-05); everyone out (GH-06, it stays hidden); a lone
# "in" beats it. Deal 1 is dealt b, c, a, then the ghost (D-GH-03); deal 2 c, a, b; deal 3 a, b, c.
ALWAYS = [
    start({"b": "Js Jd", "c": "4s 4d", "a": "2c 7d", "g": "Qh Qd"}),
    Step("b:in"),
    Step("c:in"),
    Step("a:out", show="bcg", over=True),
    start({"c": "5c 6d", "a": "8h 9s", "b": "Tc 3h", "g": "Kc Kh"}),
    Step("c:out"),
    Step("a:out"),
    Step("b:out", over=True),
    start({"a": "As Ah", "b": "2s 5s", "c": "6c 8c", "g": "3s 3d"}),
    Step("a:in"),
    Step("b:out"),
    Step("c:out", show="ag", over=True),
]

# GH-08: two "in" compete among themselves (the ghost hidden); a lone "in" plays it; all out.
ONLY_IF_ONE_IN = [
    start({"b": "Js Jd", "c": "4s 4d", "a": "2c 7d", "g": "Ah Ad"}),
    Step("b:in", sealed=True),
    Step("c:in", sealed=True),
    Step("a:out", show="bc", over=True),
    start({"c": "Kc Kh", "a": "8h 9s", "b": "Tc 3h", "g": "Qs Qc"}),
    Step("c:in", sealed=True),
    Step("a:out", sealed=True),
    Step("b:out", show="cg", over=True),
    start({"a": "9c 9d", "b": "2s 5s", "c": "6c 8c", "g": "3s 3d"}),
    Step("a:out", sealed=True),
    Step("b:out", sealed=True),
    Step("c:out", over=True),
]

GAMES = {
    "always": (ALWAYS, {}),
    "only_if_one_in": (ONLY_IF_ONE_IN, {"declare_mode": "simultaneous"}),
}


def check_ghost(reader: Reader, view: dict[str, Any], live: DealTruth) -> None:
    """GET /tables/{id}: the ghost's cards exactly when this reader may see them."""
    ghost = view["deal"]["ghost"]
    cards = live.hole[GHOST]
    may = set(cards) <= live.public or reader.sees_all(live)
    assert ghost["card_count"] == len(cards)
    assert ghost["cards"] == (cards if may else None), (str(reader), ghost)


@override_settings(**SSE)
@pytest.mark.parametrize("ghost", list(GAMES))
def test_no_answer_shows_the_ghost_before_its_showdown(ghost: str) -> None:
    script, options = GAMES[ghost]
    club = Club.create(players=3, bankroll=5000)
    body = {
        "variant": "guts2",
        "options": {"ante": 10, "min_buy_in": 100, "ghost": ghost, **options},
        "stacked_decks": decks_of(script),
    }
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(club.admin, "/api/v1/tables", body)
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 1000)
    players = [str(player) for player in club.players]
    ids = {**dict(zip("abc", players, strict=True)), "g": GHOST}
    readers = [Reader(client, str(pid), "player") for pid, client in club.players.items()]
    readers += [
        Reader(club.outsider, None, "player"),
        Reader(club.admin, None, "admin"),
        Reader(club.auditor, None, "auditor"),
    ]
    deals: dict[int, DealTruth] = {}
    for step in script:
        if step.command == "start":
            response = post(club.admin, table_url(table, "deals"))
            order = [ids[name] for name in step.dealt if name != "g"]
            deals[len(deals) + 1] = DealTruth(len(deals) + 1, order)
        else:
            name, choice = step.command.split(":")
            response = post(
                club.players[int(ids[name])],
                table_url(table, "declares"),
                {"deal_no": len(deals), "choice": choice},
            )
        assert response.status_code == 200, (step, response.content)
        live = deals[len(deals)]
        live.apply(step, ids)
        assert response.json()["deal"]["over"] == live.over, step
        walk(readers, table, players, deals, [live.deal_no])
        for reader in readers:
            check_ghost(reader, read(reader, table_url(table)).body, live)
    assert all(deal.over for deal in deals.values())
