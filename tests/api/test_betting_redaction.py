"""No response shows another player's hole card, draw or discard in the betting games (DESIGN §2.6):
Jacks and Piss (JP-01..15: the piss card is public, draws and discards are secret) and Three to Five
(T25-02: the two extra cards are secret), both with a betting round in which a player folds (D-BET:
a folder's hand is never shown; bets are public).

Four players, one scripted deal each on a stacked deck. After every command every observer (each
seated player, a player never seated, a club admin, an auditor) reads every endpoint that shows a
deal (the table, the deal lists, the event feed, the replay and histories, the proof once the deal
is over). The JSON is scanned for every card another player ever held that the observer never held
himself, except the hands shown at the showdown; an auditor sees everything once the deal is over.
The piss card must be in every observer's table view from the moment it is dealt.
"""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from tests.api.test_exchange_redaction import Observer, Truth, play, without_packs
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

PISS = "8c"
JP_HANDS = ("Ac 8s 3h Jh", "Kc Kd 2c 5d", "Qs Qh 9d 4c", "Ts Td 6h 6c")  # by place in the dealing order
JP_STOCK = ["7s", "7d", "5s", "5h"]
JP_DRAWS = ([1, 2], [], [3])  # the "in" players' discards
T25_THREES = ("As Ks 4d", "Qd Jd 9c", "2c 7h 5s", "8h 8d 3s")
T25_TWOS = ("Ah Kh", "Qh Jh", "2h 7c")  # to the three "in" players
DECLARES = ("in", "in", "in", "out")
BETS = ((0, "bet"), (1, "raise"), (2, "fold"), (0, "call"))  # place in the order, action


def check(observer: Observer, url: str, truth: Truth, board: list[str]) -> None:
    response = observer.client.get(url)
    if response.status_code in (403, 404, 409):
        return
    assert response.status_code == 200, (url, response.content)
    document = response.json()
    text = json.dumps(without_packs(document))
    leaked = sorted(card for card in truth.forbidden(observer.player, observer.role) if f'"{card}"' in text)
    assert not leaked, f"{observer.role} {observer.player} sees {leaked} at {url}"
    if "table_id" in document and document.get("deal"):  # the table view
        assert document["deal"]["board"] == board  # JP-01: public at once


def walk(observers: list[Observer], table: str, players: list[str], truth: Truth, board: list[str]) -> None:
    urls = [
        table_url(table),
        table_url(table, "deals"),
        table_url(table, "events?limit=500"),
        table_url(table, "deals/1/replay"),
        table_url(table, "deals/1/history?format=json"),
        table_url(table, "history?format=json"),
        *(f"/api/v1/players/{p}/deals" for p in players),
    ]
    if truth.over:
        urls.append(table_url(table, "deals/1/proof"))
    for observer in observers:
        for url in urls:
            check(observer, url, truth, board)


def deck_of(variant: str) -> list[str]:
    if variant == "jacks_and_piss":
        return [*stack_deck(*JP_HANDS), PISS, *JP_STOCK]
    twos = [t.split() for t in T25_TWOS]
    return [*stack_deck(*T25_THREES), *(h[r] for r in range(2) for h in twos)]


@pytest.mark.parametrize("variant", ["jacks_and_piss", "three_to_five"])
def test_no_response_leaks_a_hole_card_draw_or_folded_hand(variant: str) -> None:
    club = Club.create(players=4, bankroll=5000)
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(
            club.admin,
            "/api/v1/tables",
            {
                "variant": variant,
                "stacked_decks": [deck_of(variant)],
                "options": {"ante": 10, "min_buy_in": 100},
            },
        )
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 1000)
    players = [str(p) for p in club.players]
    observers = [Observer(client, str(pid), "player") for pid, client in club.players.items()]
    observers += [
        Observer(club.outsider, None, "player"),
        Observer(club.admin, None, "admin"),
        Observer(club.auditor, None, "auditor"),
    ]
    view = play(club.admin, table_url(table, "deals"), {})
    order = [p["player"] for p in view["deal"]["players"]]
    first = JP_HANDS if variant == "jacks_and_piss" else T25_THREES
    hands = {p: first[i].split() for i, p in enumerate(order)}
    truth = Truth(held={p: set(cards) for p, cards in hands.items()}, final=hands)
    board = [PISS] if variant == "jacks_and_piss" else []
    walk(observers, table, players, truth, board)
    ins = [p for p, choice in zip(order, DECLARES, strict=True) if choice == "in"]
    for i, player in enumerate(order):
        if player == order[-1] and variant == "three_to_five":  # the two more cards (T25-02)
            for k, holder in enumerate(ins):
                truth.final[holder] = [*truth.final[holder], *T25_TWOS[k].split()]
                truth.held[holder] |= set(T25_TWOS[k].split())
        play(club.players[int(player)], table_url(table, "declares"), {"deal_no": 1, "choice": DECLARES[i]})
        walk(observers, table, players, truth, board)
    if variant == "jacks_and_piss":
        stock = iter(JP_STOCK)
        for k, player in enumerate(ins):  # JP-09: secret draws
            hand = truth.final[player]
            discards = [hand[j] for j in JP_DRAWS[k]]
            drawn = [next(stock) for _ in discards]
            play(
                club.players[int(player)], table_url(table, "exchanges"), {"deal_no": 1, "discards": discards}
            )
            truth.final[player] = [card for card in hand if card not in discards] + drawn
            truth.held[player] |= set(drawn)
            walk(observers, table, players, truth, board)
    for place, action in BETS:  # D-BET: a folder stays hidden
        answer = play(
            club.players[int(ins[place])], table_url(table, "bets"), {"deal_no": 1, "action": action}
        )
        if answer["deal"]["over"]:
            truth.shown, truth.over = {ins[0], ins[1]}, True
        walk(observers, table, players, truth, board)
    assert truth.over
    folded = ins[2]
    assert truth.forbidden(ins[0], "player") >= set(truth.final[folded])  # never shown to the others
