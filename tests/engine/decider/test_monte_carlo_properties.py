"""Properties over random sessions of Monte Carlo and Survivor Guts (MC, SV, MCA), seeded or
stacked, with random options, declares, passes (MCA-06), timeouts and players coming and going:

- chips are conserved by every event and no stack goes below zero unless allow_debt (the books of
  `test_game_properties`); no card is dealt twice in a deal (extra cards and passes included);
- a settlement's replenishment never exceeds the pot nor the cap of `replenish_cap` antes (MC-13),
  it is paid by losing "in" players only (MC-12), by the worst shown hand(s) only in Survivor
  (SV-02/03), in shares at most one chip apart (MC-12, SV-03, D-GEN-01), and the payers skip the
  next deal's ante (D-MC-01);
- a round ends exactly when the pot was taken with nobody obliged to replenish (MC-05, Q-MC-02),
  and a player seated during a round is not dealt in before the next (MC-07) unless the round
  could not go on without him;
- an open hand (MCA-05, MCA-04) is dealt from the same deck as the hands, and bidding for it
  (D-MC-04) moves chips only into the pot;
- a snapshot plus the later events, and the events read back through JSON, fold to the live state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import (
    Bid,
    Command,
    Declare,
    ExpireDeclare,
    Leave,
    OpenTable,
    PassCard,
    SitDown,
    StartDeal,
    TopUp,
)
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    DEAL_ENDED,
    DEAL_STARTED,
    GAME_ENDED,
    GHOST_DEALT,
    OPEN_HAND_BOUGHT,
    POT_SETTLED,
    SHOWDOWN_HELD,
    Event,
)
from tables.engine.decider.evolve import evolve
from tables.engine.decider.snapshot import state_to_json
from tables.engine.decider.state import TableState
from tables.engine.decider.steps.auction import auction_of
from tables.engine.decider.view import phase

from .helpers import TABLE, Session, assert_folds_back, later
from .test_game_properties import PACK, Books, Cards

VARIANTS = ("monte_carlo", "survivor")
OPTIONS = st.fixed_dictionaries(
    {
        "ante": st.integers(1, 4),
        "replenish_cap": st.sampled_from([50, 50, 3, 0]),
        "pot_limit": st.sampled_from([0, 0, 0, 25]),
        "cap_rule": st.sampled_from(["pay_limit_only", "pay_limit_only", "reserve"]),
        "all_out": st.sampled_from(["carry", "best_matches", "pass_right", "extra_card"]),
        "lone_in": st.sampled_from(["takes_pot", "vs_deck"]),
        "ace_low": st.booleans(),
        "stack_policy": st.sampled_from(["default", "default", "pay_what_you_have", "allow_debt"]),
        "open_hand": st.sampled_from(["none", "none", "face_up", "auction"]),
    }
)


class OpenHandCards(Cards):
    """`Cards`, counting the open hand (MCA-05, MCA-04) among the cards out of the deck; a buyer
    of the open hand holds its cards from then on (D-MC-04)."""

    def post(self, event: Event) -> None:
        if event.type == GHOST_DEALT:
            self.out += event.data["cards"]
        elif event.type == OPEN_HAND_BOUGHT:
            self.held[event.data["player"]] = list(event.data["received"])
        super().post(event)


class Rounds:
    """MC-05, MC-07, MC-12..14, SV-02/03, D-MC-01 over the events of one command."""

    def __init__(self, variant: str, options: dict[str, Any]) -> None:
        self.survivor = variant == "survivor"
        self.options = options
        self.worst: list[str] = []
        self.losers: list[str] = []

    def post(self, before: TableState, event: Event) -> None:
        """`before`: the state the event is folded into."""
        data = event.data
        if event.type == DEAL_STARTED:
            late = [p for p in data["participants"] if p in before.waiting]
            assert not late or len(data["participants"]) - len(late) < 2  # MC-07
        elif event.type == ANTES_POSTED:
            assert not set(data["paid"]) & set(before.ante_exempt)  # D-MC-01
        elif event.type == SHOWDOWN_HELD:
            self.worst, self.losers = data.get("worst") or [], data["losers"]
        elif event.type == POT_SETTLED:
            self._settled(data, before.pot)

    def _settled(self, data: dict[str, Any], pot_before: int) -> None:
        paid = [
            t for t in data["transfers"] if t["to"] == f"pot:{TABLE}" and t["reason"] == "pot_replenished"
        ]
        if paid:
            amounts = [t["amount"] for t in paid]
            payers = [t["from"].rsplit(":", 1)[1] for t in paid]
            cap = self.options["replenish_cap"] * self.options["ante"]
            assert sum(amounts) <= pot_before  # one pot amount
            assert not cap or sum(amounts) <= cap  # MC-13
            if self.options["stack_policy"] != "pay_what_you_have":  # a short payer pays
                assert max(amounts) - min(amounts) <= 1  # his stack; D-GEN-01
            assert set(payers) <= set(self.worst if self.survivor else self.losers)  # SV-02, MC-12
            assert set(payers) <= set(data.get("ante_exempt") or ())  # D-MC-01

    def ended(self, new: list[Event]) -> None:
        """MC-05, Q-MC-02: GameEnded follows exactly the deals whose pot was won with nobody to
        replenish it (or that left the pot empty)."""
        settled = [e.data for e in new if e.type == POT_SETTLED]
        ended = any(e.type == GAME_ENDED for e in new)
        if settled and any(e.type == DEAL_ENDED for e in new):
            last = settled[-1]
            over = (bool(last["winners"]) and not last["matchers"]) or (
                last["pot"] == 0 and last["reserve"] == 0
            )
            assert ended == over, last


def random_command(data: st.DataObject, session: Session, tick: int, ins: int, ante: int) -> Command:
    state = session.state
    deal = state.live
    roll = data.draw(st.integers(0, 99), label="roll")
    if deal is not None:
        if phase(state) == "auction" and deal.awaiting and roll < 80:  # MCA-04
            raise_by = data.draw(st.sampled_from([None, None, 1, 3, 50]), label="raise")
            return Bid(
                deal.awaiting[0],
                deal.deal_no,
                None if raise_by is None else auction_of(deal).high_bid + raise_by,
            )
        if deal.passing and deal.awaiting and roll < 80:  # MCA-06
            player = data.draw(st.sampled_from(deal.awaiting), label="passer")
            return PassCard(
                player, deal.deal_no, data.draw(st.sampled_from(deal.hand_of(player)), label="card")
            )
        if deal.awaiting and roll < 80:
            player = data.draw(st.sampled_from(deal.awaiting), label="declarer")
            choice = "in" if data.draw(st.integers(0, 3), label="choice") < ins else "out"
            return Declare(player, deal.deal_no, choice)
        return ExpireDeclare(deal.deal_no)
    seated = [s.player for s in state.seats]
    if roll < 75 or not seated:
        return StartDeal(None, data.draw(st.binary(min_size=4, max_size=4), label="seed").hex())
    if roll < 83:
        return TopUp(data.draw(st.sampled_from(seated), label="top_up"), 20 * ante)
    if roll < 90:
        return Leave(data.draw(st.sampled_from(seated), label="leaver"))
    return SitDown(f"p{tick}", data.draw(st.sampled_from([100, 100, 150, 400]), label="antes") * ante)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_sessions_keep_the_books_the_cards_and_the_rounds(variant: str, data: st.DataObject) -> None:
    options = data.draw(OPTIONS, label="options")
    if options["open_hand"] == "face_up":
        options["lone_in"] = "takes_pot"  # vs_deck conflicts
    ante = options["ante"]
    players = data.draw(st.integers(2, 6), label="players")
    stacked = data.draw(st.booleans(), label="stacked")
    ins = data.draw(st.integers(1, 3), label="ins")
    decks = [data.draw(st.permutations(PACK), label="deck") for _ in range(2)] if stacked else None
    session, books, cards, rounds = Session(), Books(), OpenHandCards(), Rounds(variant, options)
    snapshots: list[tuple[int, dict[str, Any]]] = []
    commands: list[Command] = [
        OpenTable(TABLE, variant, options, stacked_decks=decks, stacked_allowed=stacked)
    ]
    commands += [
        SitDown(f"s{i}", data.draw(st.sampled_from([100, 101, 120, 300]), label="antes") * ante)
        for i in range(players)
    ]
    clock = 0
    for tick in range(90):
        command = commands[tick] if tick < len(commands) else random_command(data, session, tick, ins, ante)
        clock += data.draw(st.sampled_from([1, 1, 40]), label="wait")
        before = session.state
        try:
            new = session.do(command, later(clock))
        except DomainError:
            assert session.state is before
            continue
        state = before
        for event in new:
            rounds.post(state, event)
            books.post(event)
            cards.post(event)
            json.dumps(event.data)
            state = evolve(state, event)
        books.check(session, options)
        cards.check(session)
        rounds.ended(new)
        if len(snapshots) < 4 and data.draw(st.integers(0, 9), label="snapshot") == 0:
            snapshots.append((len(session.events), state_to_json(session.state)))
    assert_folds_back(session, snapshots)
