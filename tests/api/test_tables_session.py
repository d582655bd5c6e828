"""A 50-deal session of two-card Guts played through HTTP only, checked after every deal against a
small reference model of the money rules written independently of the engine:

- G2-05 antes when the pot is empty; G2-08 declare in turn from the dealer's left; G2-10 the
  dealer forced in when all others are out (sequential only, D-G2-05); SIM-01 sealed windows;
- G2-11 a lone "in" takes the pot; G2-12/G2-13 losers each match the pot, forming the next pot;
  G2-14 TIE_SPLIT with D-GEN-01 odd chips from the dealer's left; G2-15 all-in tie empties it;
- AO-01 all out: the pot carries; D-RES-01 after every settlement pot + reserve are pooled, the
  pot gets up to the limit, the rest is the reserve; D-GEN-05 the deal passes clockwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from django.test import override_settings

from ledger.money import balance, check_conservation, player_account, seat_account
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

RANKS = "23456789TJQKA"
PLAYERS, DEALS, DECKS = 5, 50, 7
ANTE, LIMIT, BUY_IN, BANKROLL = 5, 100, 3000, 5000


def strength(cards: list[str]) -> tuple[int, int, int]:
    """G2-16..G2-19: any pair beats no pair; then the pair's rank; then high card, low card."""
    high, low = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    return (int(high == low), high, low)


@dataclass
class Reference:
    """The table's money, by the rules above (no engine code)."""

    stacks: dict[str, int]
    pot: int = 0
    reserve: int = 0
    log: list[str] = field(default_factory=list)

    def start(self, order: list[str]) -> None:
        if self.pot == 0:  # G2-05
            for player in order:
                self.stacks[player] -= ANTE
            self.pot = ANTE * len(order)

    def settle(self, order: list[str], choices: dict[str, str], hands: dict[str, list[str]]) -> None:
        ins = [p for p in order if choices[p] == "in"]
        if not ins:  # AO-01: the pot carries
            return
        if len(ins) == 1:  # G2-11
            self.stacks[ins[0]] += self.pot
            self.pot = 0
        else:
            best = max(strength(hands[p]) for p in ins)
            winners = [p for p in ins if strength(hands[p]) == best]
            losers = [p for p in ins if p not in winners]
            base, odd = divmod(self.pot, len(winners))  # G2-14, D-GEN-01
            for i, player in enumerate(winners):
                self.stacks[player] += base + (1 if i < odd else 0)
            for player in losers:  # G2-13
                self.stacks[player] -= self.pot
            self.pot = self.pot * len(losers)  # G2-15 when no losers: 0
        pool = self.pot + self.reserve  # D-RES-01
        self.pot, self.reserve = min(pool, LIMIT), pool - min(pool, LIMIT)


def decks(rng: random.Random) -> list[list[str]]:
    pack = [r + s for r in RANKS for s in "cdhs"]
    out = []
    for _ in range(DECKS):
        deck = pack[:]
        rng.shuffle(deck)
        out.append(deck)
    return out


@pytest.mark.parametrize("mode", ["sequential", "simultaneous"])
def test_fifty_deals_match_the_reference_model(mode: str) -> None:
    rng = random.Random(f"guts-{mode}")
    club = Club.create(players=PLAYERS, bankroll=BANKROLL)
    stacked = decks(rng)
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        table = club.open_table(
            {"ante": ANTE, "pot_limit": LIMIT, "min_buy_in": 100, "declare_mode": mode}, stacked
        )
    club.seat_all(table, BUY_IN)
    seats = [str(p) for p in club.players]  # seat 0, 1, 2, ... in sitting order
    model = Reference(stacks=dict.fromkeys(seats, BUY_IN))
    reserve_seen = 0
    for deal_no in range(1, DEALS + 1):
        dealer = (deal_no - 1) % PLAYERS  # D-GEN-05
        order = [seats[(dealer + 1 + i) % PLAYERS] for i in range(PLAYERS)]
        deck = stacked[(deal_no - 1) % DECKS]
        hands = {p: [deck[i], deck[i + PLAYERS]] for i, p in enumerate(order)}  # D-G2-01
        starter = club.players[int(order[0])]
        view = post(starter, table_url(table, "deals")).json()
        assert [p["player"] for p in view["deal"]["players"]] == order
        model.start(order)
        assert view["pot"] == model.pot
        choices = play_declares(club, table, deal_no, order, mode, rng, model)
        model.settle(order, choices, hands)
        view = club.outsider.get(table_url(table)).json()
        assert view["phase"] == "between_deals"
        assert (view["pot"], view["reserve"]) == (model.pot, model.reserve), f"deal {deal_no}"
        assert {s["player"]: s["stack"] for s in view["seats"]} == model.stacks, f"deal {deal_no}"
        for player in seats:
            assert balance(seat_account(table, player)) == model.stacks[player]
            assert balance(player_account(player)) == BANKROLL - BUY_IN
        reserve_seen += model.reserve > 0
    assert reserve_seen > 0  # the reserve was exercised
    for player, client in club.players.items():
        assert post(client, table_url(table, "leave")).status_code == 200
        assert balance(player_account(player)) == BANKROLL - BUY_IN + model.stacks[str(player)]
    assert post(club.admin, table_url(table, "close")).status_code == 200
    assert check_conservation() == []


def play_declares(
    club: Club, table: str, deal_no: int, order: list[str], mode: str, rng: random.Random, model: Reference
) -> dict[str, str]:
    """Declare by the script (in only when the stack covers the pot, D-GEN-06); the choices made."""
    wanted = {p: ("in" if rng.random() < 0.5 and model.stacks[p] >= model.pot else "out") for p in order}
    if mode == "simultaneous":
        for player in rng.sample(order, len(order)):
            response = post(
                club.players[int(player)],
                table_url(table, "declares"),
                {"deal_no": deal_no, "choice": wanted[player]},
            )
            assert response.status_code == 200, response.content
        return wanted
    for i, player in enumerate(order):
        if i == len(order) - 1 and all(wanted[p] == "out" for p in order[:-1]):  # G2-10
            assert club.outsider.get(table_url(table)).json()["turn"] == []
            return {**wanted, player: "in"}
        response = post(
            club.players[int(player)],
            table_url(table, "declares"),
            {"deal_no": deal_no, "choice": wanted[player]},
        )
        assert response.status_code == 200, response.content
    return wanted
