"""Properties over random sessions of Buddha's Folly and Wolfie's Lou (BF, WL, D-BF-01, D-WL-01..06):
every command is one the table offers (`legal_actions`: offers, trump, plays, draws, declares) or a
timeout, on seeded or stacked deals:

- chips are conserved at every event (an independent double-entry book agrees with the stacks,
  the pot and the reserve);
- no card is held twice, and no card leaves the deck twice (hands, the middle card and the cards
  put in its place, the cards played, the discards);
- Wolfie's Lou: each trick has exactly one card of each player of the tricks (the "in" players),
  a deal with tricks has five, and every card offered as playable is accepted;
- a snapshot plus the later events folds to the same state as the whole log, and so does the log
  read back through JSON (rebuild equals live).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import (
    ChooseTrump,
    Command,
    Declare,
    Exchange,
    ExpireDeclare,
    Offer,
    OpenTable,
    PlayCard,
    SitDown,
    StartDeal,
)
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    CARDS_DEALT,
    CARDS_DRAWN,
    DEAL_ENDED,
    DEAL_STARTED,
    MIDDLE_CARD_TURNED,
    TRICK_WON,
    TRUMP_CHOSEN,
    Event,
)
from tables.engine.decider.snapshot import state_to_json
from tables.engine.decider.view import legal_actions
from tables.engine.deck import STANDARD_PACK

from .helpers import TABLE, Session, assert_folds_back, later
from .test_game_properties import Books

PACK = [str(card) for card in STANDARD_PACK]
OPTIONS = st.fixed_dictionaries(
    {
        "ante": st.integers(1, 10),
        "max_loss": st.sampled_from([0, 0, 25]),
        "pot_limit": st.sampled_from([0, 0, 60]),
        "stack_policy": st.sampled_from(["default", "default", "pay_what_you_have", "allow_debt"]),
        "min_buy_in": st.just(10),
    }
)


class Cards:
    """Every card that left the deck in the current deal, and the tricks."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.tricks = 0
        self.trump = False

    def post(self, event: Event, session: Session) -> None:
        data = event.data
        if event.type == DEAL_STARTED:
            self.out, self.tricks, self.trump = [], 0, False
        elif event.type == CARDS_DEALT:
            self.out += data["cards"]
        elif event.type == CARDS_DRAWN:
            self.out += data["drawn"]
        elif event.type == MIDDLE_CARD_TURNED:
            self.out.append(data["card"])
        elif event.type == TRUMP_CHOSEN:
            self.trump = True
        elif event.type == TRICK_WON:
            self.tricks += 1
            deal = session.state.deal
            assert deal is not None
            assert sorted(c["player"] for c in data["cards"]) == sorted(deal.in_players())
        elif event.type == DEAL_ENDED:
            assert self.tricks == (5 if self.trump else 0)
        assert len(set(self.out)) == len(self.out), self.out
        assert set(self.out) <= set(PACK)

    def check(self, session: Session) -> None:
        deal = session.state.live
        if deal is None:
            return
        held = [card for hand in deal.hands for card in hand]
        assert len(set(held)) == len(held), held
        assert set(held) <= set(self.out)


def random_command(data: st.DataObject, session: Session) -> Command:
    """One of the actions the table offers the player whose turn it is, or a timeout."""
    state = session.state
    deal = state.live
    if deal is None:
        return StartDeal(None, data.draw(st.binary(min_size=4, max_size=4), label="seed").hex())
    if not deal.awaiting or data.draw(st.integers(0, 9), label="timeout") == 0:
        return ExpireDeclare(deal.deal_no)
    player = data.draw(st.sampled_from(deal.awaiting), label="player")
    actions = [
        a
        for a in legal_actions(state, player, later(0))
        if a["action"] in ("declare", "exchange", "offer", "trump", "play")
    ]
    if not actions:
        return ExpireDeclare(deal.deal_no)
    action = actions[0]
    kind, no = action["action"], deal.deal_no
    if kind == "declare":
        return Declare(player, no, data.draw(st.sampled_from(action["choices"]), label="choice"))
    if kind == "exchange":
        return Exchange(
            player,
            no,
            data.draw(
                st.lists(st.sampled_from(action["choices"]), unique=True, max_size=action["max"]),
                label="discards",
            ),
        )
    if kind == "offer":
        if data.draw(st.booleans(), label="take"):
            return Offer(player, no, "take", data.draw(st.sampled_from(action["give"]), label="give"))
        return Offer(player, no, "leave")
    if kind == "trump":
        return ChooseTrump(player, no, data.draw(st.sampled_from(action["choices"]), label="trump"))
    return PlayCard(player, no, data.draw(st.sampled_from(action["choices"]), label="card"))


@pytest.mark.parametrize("variant", ["buddhas_folly", "wolfies_lou"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_sessions_keep_the_books_the_cards_and_the_tricks(variant: str, data: st.DataObject) -> None:
    options: dict[str, Any] = data.draw(OPTIONS, label="options")
    if variant == "wolfies_lou":
        options["no_trick_double"] = data.draw(st.booleans(), label="double")
    players = data.draw(st.integers(2, 7), label="players")
    stacked = data.draw(st.booleans(), label="stacked")
    decks = [data.draw(st.permutations(PACK), label="deck") for _ in range(2)] if stacked else None
    session, books, cards = Session(), Books(), Cards()
    snapshots: list[tuple[int, dict[str, Any]]] = []
    setup: list[Command] = [OpenTable(TABLE, variant, options, stacked_decks=decks, stacked_allowed=stacked)]
    setup += [
        SitDown(f"s{i}", data.draw(st.sampled_from([30, 60, 300]), label="buy_in")) for i in range(players)
    ]
    clock = 0
    for command in setup:
        for event in session.do(command, later(clock)):
            books.post(event)
    deals = 0
    while deals < 3:
        command = random_command(data, session)
        clock += 40 if isinstance(command, ExpireDeclare) else 1
        try:
            new = session.do(command, later(clock))  # an offered action is always accepted
        except DomainError:
            if not isinstance(command, StartDeal):
                raise
            break  # too few players can pay: the session is over
        for event in new:
            books.post(event)
            cards.post(event, session)
            json.dumps(event.data)
        books.check(session, options)
        cards.check(session)
        deals += sum(1 for event in new if event.type == DEAL_ENDED)
        if len(snapshots) < 4 and data.draw(st.integers(0, 9), label="snapshot") == 0:
            snapshots.append((len(session.events), state_to_json(session.state)))
    assert_folds_back(session, snapshots)
