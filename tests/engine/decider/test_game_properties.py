"""Properties over random sessions of the four issue-11 games (Two plus One, Four-Two-Two,
Four-Two-Three, Three-Five-Seven) and of Consecutive and Alternating Guts, on seeded or stacked
deals, with random declares and timeouts:

- chips are conserved by every event: an independent double-entry book of every transfer agrees
  with the seat stacks, the pot and the reserve, and what the table holds is what the bankroll
  side paid in minus what it took out; no stack below zero unless allow_debt (D-GEN-06);
- no card is dealt twice within a deal (hands, board and the deck's cards of 42X-03);
- legs never reach three without the pot being awarded in the same command (357-25), and the
  game's end resets them;
- a snapshot plus the fold of the later events equals the full fold, and so does the fold of the
  events read back through JSON (`events.parse`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import (
    Command,
    Declare,
    ExpireDeclare,
    Leave,
    OpenTable,
    SitDown,
    StartDeal,
    TopUp,
)
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    BOARD_DEALT,
    CARDS_DEALT,
    DEAL_STARTED,
    DECK_COMPARED,
    GAME_ENDED,
    LEG_AWARDED,
    POT_AWARDED,
    Event,
)
from tables.engine.decider.snapshot import state_to_json
from tables.engine.deck import STANDARD_PACK

from .helpers import TABLE, Ledger, Session, assert_folds_back, later

PACK = [str(card) for card in STANDARD_PACK]
LEGS = 3  # 357-04
BUY_INS = st.sampled_from([10, 12, 16, 30, 60, 300])  # short stacks are where stakes break

COMMON = {
    "ante": st.integers(1, 10),
    "max_loss": st.sampled_from([0, 0, 5, 25]),
    "stack_policy": st.sampled_from(["default", "default", "pay_what_you_have", "allow_debt"]),
    "min_buy_in": st.just(10),
}
OPTIONS = {
    "two_plus_one": st.fixed_dictionaries(
        {
            **COMMON,
            "declare_mode": st.sampled_from(["sequential", "simultaneous"]),
            "extra_ante_redeclare": st.sampled_from([True, True, False]),
            "all_out": st.sampled_from(["carry", "extra_ante"]),
            "ranking": st.sampled_from(["guts3_sf_high", "guts3_trips_high", "guts3_classic"]),
            "ante_rule": st.sampled_from(["pot_empty", "every_deal"]),
            "pot_limit": st.sampled_from([0, 0, 40]),
            "cap_rule": st.sampled_from(["reserve", "pay_limit_only"]),
            "ties": st.sampled_from(["split", "no_split"]),
            "dealer_forced_in": st.booleans(),
        }
    ),
    "four_two_two": st.fixed_dictionaries(
        {
            **COMMON,
            "lone_in": st.sampled_from(["takes_pot", "vs_deck"]),
            "ties": st.sampled_from(["split", "no_split"]),
        }
    ),
    "four_two_three": st.fixed_dictionaries(
        {
            **COMMON,
            "lone_in": st.sampled_from(["takes_pot", "vs_deck"]),
            "ties": st.sampled_from(["split", "no_split"]),
        }
    ),
    "three_five_seven": st.fixed_dictionaries(
        {**COMMON, "declare_mode": st.sampled_from(["sequential", "simultaneous"]), "ace_low": st.booleans()}
    ),
    **{
        name: st.fixed_dictionaries(
            {  # CONS, ALT: classic Guts settlement
                **COMMON,
                "pot_limit": st.sampled_from([0, 0, 40]),
                "cap_rule": st.sampled_from(["reserve", "pay_limit_only"]),
                "ante_rule": st.sampled_from(["pot_empty", "every_deal"]),
                "ties": st.sampled_from(["split", "no_split"]),
                "dealer_forced_in": st.booleans(),
            }
        )
        for name in ("consecutive", "alternating")
    },
}
MOST_PLAYERS = {
    "two_plus_one": 6,
    "four_two_two": 6,
    "four_two_three": 6,
    "three_five_seven": 7,
    "consecutive": 10,
    "alternating": 10,
}


class Books(Ledger):
    """The double-entry ledger of every transfer, checked against the state."""

    def check(self, session: Session, options: dict[str, Any]) -> None:
        state = session.state
        assert self.balances[f"pot:{TABLE}"] == state.pot >= 0
        assert self.balances[f"reserve:{TABLE}"] == state.reserve >= 0
        for seat in state.seats:
            assert self.balances[f"seat:{TABLE}:{seat.player}"] == seat.stack
            if options["stack_policy"] != "allow_debt":
                assert seat.stack >= 0  # D-GEN-06
        held = sum(s.stack for s in state.seats) + state.pot + state.reserve
        outside = sum(v for k, v in self.balances.items() if not k.endswith(TABLE) and f":{TABLE}:" not in k)
        assert held == -outside  # the bankroll side paid in what the table holds


class Cards:
    """Every card that left the deck in the current deal: none may leave it twice."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.held: dict[str, list[str]] = {}

    def post(self, event: Event) -> None:
        data = event.data
        if event.type == DEAL_STARTED:
            self.out, self.held = [], {}
        elif event.type == CARDS_DEALT:
            held = self.held.get(data["player"], [])
            new = data["cards"] if data["face"] == "up" else data["cards"][len(held) :]
            assert data["face"] == "up" or data["cards"][: len(held)] == held  # keeps his cards
            self.held[data["player"]] = [*held, *new]
            self.out += new
        elif event.type == BOARD_DEALT:
            self.out += data["cards"]
        elif event.type == DECK_COMPARED:
            self.out += data["deck_cards"]
        assert len(set(self.out)) == len(self.out), self.out
        assert set(self.out) <= set(PACK)

    def check(self, session: Session) -> None:
        deal = session.state.deal
        if deal is None:
            return
        assert deal.dealt == len(self.out)
        in_hands = [card for hand in deal.hands for card in hand]
        assert sorted([*in_hands, *deal.board]) == sorted(
            c for c in self.out if c in in_hands or c in deal.board
        )


def check_legs(session: Session, new: list[Event]) -> None:
    """357-25: a third leg takes the pot in the same command, and the game's end resets legs."""
    assert all(0 <= seat.legs < LEGS for seat in session.state.seats)
    for i, event in enumerate(new):
        if event.type == LEG_AWARDED:
            assert event.data["legs"] <= LEGS
            if event.data["legs"] == LEGS:
                rest = [e.type for e in new[i + 1 :]]
                assert POT_AWARDED in rest
                assert GAME_ENDED in rest


def random_command(data: st.DataObject, session: Session, tick: int, ins: int) -> Command:
    """A declare (in with odds `ins` in 4, now and then naming a stage) or a timeout during a
    deal; between deals mostly a new deal, sometimes a top-up, a leave or a new player."""
    state = session.state
    deal = state.live
    roll = data.draw(st.integers(0, 99), label="roll")
    if deal is not None:
        if deal.awaiting and roll < 80:
            player = data.draw(st.sampled_from(deal.awaiting), label="declarer")
            choice = "in" if data.draw(st.integers(0, 3), label="choice") < ins else "out"
            stage = data.draw(st.sampled_from([None, None, deal.stage, deal.stage + 1]), label="stage")
            return Declare(player, deal.deal_no, choice, stage)
        return ExpireDeclare(deal.deal_no)
    seated = [s.player for s in state.seats]
    if roll < 80 or not seated:
        return StartDeal(None, data.draw(st.binary(min_size=4, max_size=4), label="seed").hex())
    if roll < 88:
        return TopUp(data.draw(st.sampled_from(seated), label="top_up"), 50)
    if roll < 93:
        return Leave(data.draw(st.sampled_from(seated), label="leaver"))
    return SitDown(f"p{tick}", data.draw(BUY_INS, label="buy_in"))


@pytest.mark.parametrize("variant", sorted(OPTIONS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False)
@given(data=st.data())
def test_random_sessions_keep_the_books_the_cards_and_the_legs(variant: str, data: st.DataObject) -> None:
    options = data.draw(OPTIONS[variant], label="options")
    players = data.draw(st.integers(2, MOST_PLAYERS[variant]), label="players")
    stacked = data.draw(st.booleans(), label="stacked")
    ins = data.draw(st.integers(1, 3), label="ins")  # few "in": more lone ins and legs
    decks = [data.draw(st.permutations(PACK), label="deck") for _ in range(2)] if stacked else None
    session, books, cards = Session(), Books(), Cards()
    snapshots: list[tuple[int, dict[str, Any]]] = []
    commands: list[Command] = [
        OpenTable(TABLE, variant, options, stacked_decks=decks, stacked_allowed=stacked)
    ]
    commands += [SitDown(f"s{i}", data.draw(BUY_INS, label="buy_in")) for i in range(players)]
    clock = 0
    for tick in range(80):
        command = commands[tick] if tick < len(commands) else random_command(data, session, tick, ins)
        clock += data.draw(st.sampled_from([1, 1, 40]), label="wait")  # past a deadline at times
        before = session.state
        try:
            new = session.do(command, later(clock))
        except DomainError:
            assert session.state is before
            continue
        for event in new:
            books.post(event)
            cards.post(event)
            json.dumps(event.data)  # plain JSON only
        books.check(session, options)
        cards.check(session)
        check_legs(session, new)
        if len(snapshots) < 4 and data.draw(st.integers(0, 9), label="snapshot") == 0:
            snapshots.append((len(session.events), state_to_json(session.state)))
    assert_folds_back(session, snapshots)
