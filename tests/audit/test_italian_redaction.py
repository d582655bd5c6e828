"""No response shows another player's hole card, draw, discard, folded hand or unshown openers in
Italian poker (DESIGN §2.6, D-IT-03, D-IT-05): draws and discards are private to the drawer (the
count is public), a folded hand is never shown, the opener's qualifying cards are secret in his
open and shown to everyone only at the end (OpenersShown), even the one he split into his discards.

Four players, one scripted deal on a stacked deck (dealt b, c, d, a): b opens on jacks, c calls,
d folds, a calls; b splits his openers in a four-card draw (three now, the last after the others),
c draws one, a stands pat; everyone checks the second round; b, c and a show. After every command
every observer (each player, a player never seated, a club admin, an auditor) reads every endpoint
that shows a deal; the JSON is scanned for every card another player ever held that the observer
never held himself, except the hands shown and, once shown, the openers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.test import override_settings

from tests.api.test_betting_redaction import walk
from tests.api.test_exchange_redaction import Observer, Truth, play
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

HANDS = ("Jh Js 7c 8d 9s", "Qh Qd 7d 8c Tc", "Ah Kd 9h 8h 7h", "As Ad Ks Kh 7s")  # b, c, d, a
STOCK = ["Ts", "Th", "Td", "9c", "Qs"]
OPENERS = {"Jh", "Js"}


@dataclass
class ItalianTruth(Truth):
    """The deal as scripted, with the openers shown to everyone at the end (D-IT-03)."""

    revealed: set[str] = field(default_factory=set)

    def forbidden(self, player: str | None, role: str) -> set[str]:
        return super().forbidden(player, role) - self.revealed


def test_no_response_leaks_a_draw_a_discard_a_folded_hand_or_unshown_openers() -> None:
    club = Club.create(players=4, bankroll=5000)
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(
            club.admin,
            "/api/v1/tables",
            {
                "variant": "italian",
                "stacked_decks": [[*stack_deck(*HANDS), *STOCK]],
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
    b, c, d, a = (p["player"] for p in view["deal"]["players"])
    hands = {p: HANDS[i].split() for i, p in enumerate((b, c, d, a))}
    truth = ItalianTruth(held={p: set(cards) for p, cards in hands.items()}, final=hands)
    walk(observers, table, players, truth, [])

    def act(player: str, endpoint: str, body: dict[str, object]) -> dict[str, object]:
        answer = play(club.players[int(player)], table_url(table, endpoint), {"deal_no": 1, **body})
        walk(observers, table, players, truth, [])
        return answer

    for player, action in ((b, "open"), (c, "call"), (d, "fold"), (a, "call")):
        act(player, "bets", {"action": action})
    act(b, "exchanges", {"discards": ["Js", "7c", "8d", "9s"], "split_openers": True})  # Ts Th Td
    truth.final[b], truth.held[b] = ["Jh", "Ts", "Th", "Td"], truth.held[b] | {"Ts", "Th", "Td"}
    act(c, "exchanges", {"discards": ["7d"]})  # 9c
    truth.final[c], truth.held[c] = ["Qh", "Qd", "8c", "Tc", "9c"], truth.held[c] | {"9c"}
    truth.final[b], truth.held[b] = [*truth.final[b], "Qs"], truth.held[b] | {"Qs"}  # IT-15
    act(a, "exchanges", {"discards": []})
    act(b, "bets", {"action": "check"})
    act(c, "bets", {"action": "check"})
    truth.shown, truth.revealed, truth.over = {b, c, a}, OPENERS, True
    answer = act(a, "bets", {"action": "check"})
    assert answer["deal"]["over"]
    assert truth.forbidden(a, "player") >= set(HANDS[2].split())  # d folded: never shown
    assert truth.forbidden(a, "player") >= {"7c", "8d", "9s", "7d"}  # discards stay private
