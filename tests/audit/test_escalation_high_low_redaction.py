"""The redaction walk for Thirty Eight and Four-Three: after every command of a scripted
session, every endpoint that shows deal data is read by every role (each seated player, a player
never seated, a club admin, an auditor), with the checks of tests/audit/test_games_redaction.py:

- hole cards stay secret to everyone else until shown (T38-05: only the players who remain after
  the escalation show; a folder's cards and an uncontested winner's are never shown to players;
  43-04: the "in" players show at the High/Low showdown), and to auditors until the deal is over;
- Four-Three's High/Low/Both choice (43-03, D-43-01) is a sealed Declared: "sealed" or null to
  everyone but the declarer, in every view, feed and history, until the reveal (SIM-04);
- the escalation's answers (T38-03/04) and 43-07's bets are public; a player who folded in the
  betting is never shown.
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
    check_answer,
    deal_order,
    decks_of,
    start,
    walk,
)
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

ESCALATIONS = frozenset({"single", "double", "triple", "fold"})
BETS = frozenset({"check", "bet", "call", "raise", "fold"})


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# Thirty Eight: deal 1 dealt b, c, a (two more to the three "in"), a folds and stays unseen, b and c
# show (T38-05); deal 2 dealt c, a, b: b folds to a triple, c wins uncontested, nobody shows.
THIRTY_EIGHT = [
    start({"b": "Ah Ad Ac", "c": "Kh Kd 9c", "a": "2c 4d 6h"}),
    Step("b:in"),
    Step("c:in"),
    Step("a:in", dealt={"b": "Kc Ks", "c": "7h 7d", "a": "5s 5c"}),
    Step("b:single"),
    Step("c:double"),
    Step("a:fold"),  # T38-04
    Step("b:double", show="bc", over=True),  # T38-05
    start({"c": "Qs Qh Jc", "a": "Js Jh Tc", "b": "9s 9h 8s"}),
    Step("c:in"),
    Step("a:out"),
    Step("b:in", dealt={"c": "Td Th", "b": "3s 2s"}),
    Step("c:triple"),
    Step("b:fold", over=True),  # uncontested
]

# Four-Three: deal 1 dealt b, c, a, all "in", sealed High/Low/Both, everyone shows (43-04);
# deal 2 dealt c, a, b: c goes out and is never shown.
FOUR_THREE = [
    start({"b": "5h 6d 7c 3s", "c": "As Ad Ac Kd", "a": "Ah 2d 3c 4s"}),
    Step("b:in"),
    Step("c:in"),
    Step("a:in", dealt={"b": "8h 9d 2c", "c": "Ks 9c Qh", "a": "6h Jd Qs"}),
    Step("a:low", sealed=True),
    Step("b:high", sealed=True),  # 43-03
    Step("c:high", show="bca", over=True),  # 43-04/05
    start({"c": "Th Tc 7s 8s", "a": "Jh Js 4h 5d", "b": "2h 3h 4c 6s"}),
    Step("c:out"),
    Step("a:in"),
    Step("b:in", dealt={"a": "9h 7h 8c", "b": "5c 6c Ts"}),
    Step("b:both", sealed=True),
    Step("a:low", show="ab", over=True),  # D-43-01
]

# Four-Three with 43-07's betting round: a folds after the three more cards, is not asked High or
# Low and is never shown; the bets are public.
FOUR_THREE_BETTING = [
    start({"b": "5h 6d 7c 3s", "c": "As Ad Ac Kd", "a": "Ah 2d 3c 4s"}),
    Step("b:in"),
    Step("c:in"),
    Step("a:in", dealt={"b": "8h 9d 2c", "c": "Ks 9c Qh", "a": "6h Jd Qs"}),
    Step("b:bet"),
    Step("c:call"),
    Step("a:fold"),  # D-BET
    Step("b:both", sealed=True),
    Step("c:high", show="bc", over=True),  # 43-07
]

# (script, options, the endpoint of the action words)
GAMES = {
    "thirty_eight": (THIRTY_EIGHT, {}, ("escalations", ESCALATIONS)),
    "four_three": (FOUR_THREE, {}, ("bets", frozenset())),
    "four_three_betting": (FOUR_THREE_BETTING, {"betting": True}, ("bets", BETS)),
}


@override_settings(**SSE)
@pytest.mark.parametrize("variant", list(GAMES))
def test_every_endpoint_shows_every_role_only_what_it_may_see_at_every_step(variant: str) -> None:
    script, options, (endpoint, actions) = GAMES[variant]
    club = Club.create(players=3, bankroll=5000)
    body = {
        "variant": variant.removesuffix("_betting"),
        "stacked_decks": decks_of(script),
        "options": {"ante": 10, "min_buy_in": 100, **options},
    }
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(club.admin, "/api/v1/tables", body)
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 1000)
    players = [str(player) for player in club.players]
    ids = dict(zip("abc", players, strict=True))
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
            deals[len(deals) + 1] = DealTruth(len(deals) + 1, [ids[name] for name in deal_order(step)])
        else:
            name, choice = step.command.split(":")
            kind, key = (endpoint, "action") if choice in actions else ("declares", "choice")
            response = post(
                club.players[int(ids[name])], table_url(table, kind), {"deal_no": len(deals), key: choice}
            )
        assert response.status_code == 200, (step, response.content)
        live = deals[len(deals)]
        live.apply(step, ids)
        assert response.json()["deal"]["over"] == live.over, step
        actor = (
            readers[-2]
            if step.command == "start"
            else next(r for r in readers if r.player == ids[step.command.split(":")[0]])
        )
        check_answer(actor, response.json(), deals)
        walk(readers, table, players, deals, [live.deal_no])
    assert all(deal.over for deal in deals.values())
