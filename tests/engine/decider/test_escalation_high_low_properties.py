"""Properties over random sessions of Thirty Eight (escalation, T38-03..05, D-T38-01) and
Four-Three (High/Low/Both halves, 43-05/06, D-43-01), on seeded or stacked deals, with random
declares, escalations and timeouts:

- chips are conserved by every event (the shared double-entry `Books` of the issue-11 games agree
  with the seat stacks and the pot; no stack below zero unless allow_debt, D-GEN-06);
- no card is dealt twice within a deal;
- Thirty Eight: every settlement's payments are the payers' levels times the existing pot (capped),
  and the winner takes exactly the existing pot (D-T38-01);
- Four-Three: the halves add up to the pot, and nobody who won a half also pays (D-43-01); with
  43-07's betting round the bets stay apart from the pot and are all awarded by the deal's end;
- a snapshot plus the later events, and the events through JSON, fold to the same state.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import (
    Bet,
    Command,
    Declare,
    ExpireDeclare,
    OpenTable,
    SitDown,
    StartDeal,
    TopUp,
)
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import POT_SETTLED, Event
from tables.engine.decider.snapshot import state_to_json
from tables.engine.decider.steps import betting
from tables.engine.decider.steps.escalation import FOLD, LEVELS, Escalate
from tables.engine.decider.view import phase
from tables.engine.deck import STANDARD_PACK

from .helpers import TABLE, Session, assert_folds_back, later
from .test_game_properties import Books, Cards

PACK = [str(card) for card in STANDARD_PACK]
BUY_INS = st.sampled_from([10, 12, 30, 60, 300])
COMMON = {
    "ante": st.integers(1, 6),
    "max_loss": st.sampled_from([0, 0, 7]),
    "stack_policy": st.sampled_from(["default", "default", "pay_what_you_have", "allow_debt"]),
    "min_buy_in": st.just(10),
    "declare_mode": st.sampled_from(["sequential", "simultaneous"]),
    "dealer_forced_in": st.booleans(),
}
OPTIONS = {
    "thirty_eight": st.fixed_dictionaries({**COMMON, "ties": st.sampled_from(["split", "no_split"])}),
    "four_three": st.fixed_dictionaries({**COMMON, "betting": st.booleans()}),  # 43-07
}


class BooksWithBets(Books):
    """The shared books, with the deal's bets account (D-BET, 43-07) counted as table chips."""

    def check(self, session: Session, options: dict[str, Any]) -> None:
        state = session.state
        assert self.balances[f"bets:{TABLE}"] == state.bets >= 0
        for seat in state.seats:
            assert self.balances[f"seat:{TABLE}:{seat.player}"] == seat.stack
            if options["stack_policy"] != "allow_debt":
                assert seat.stack >= 0  # D-GEN-06
        held = sum(s.stack for s in state.seats) + state.pot + state.reserve + state.bets
        outside = sum(v for k, v in self.balances.items() if not k.endswith(TABLE) and f":{TABLE}:" not in k)
        assert held == -outside
        assert self.balances[f"pot:{TABLE}"] == state.pot >= 0


def random_command(data: st.DataObject, session: Session, tick: int) -> Command:
    state = session.state
    deal = state.live
    roll = data.draw(st.integers(0, 99), label="roll")
    if deal is not None:
        if deal.awaiting and roll < 85:
            player = data.draw(st.sampled_from(deal.awaiting), label="actor")
            if phase(state) == "escalation":
                action = data.draw(st.sampled_from([*LEVELS, FOLD]), label="action")
                return Escalate(player, deal.deal_no, action)
            if phase(state) == "betting":  # 43-07, D-BET
                action = data.draw(st.sampled_from(betting.ACTIONS), label="bet")
                return Bet(player, deal.deal_no, action)
            step = state.current_step()
            choices = list(step.param("choices", state.opts)) if phase(state) == "declare" else ["in", "out"]
            return Declare(player, deal.deal_no, data.draw(st.sampled_from(choices), label="choice"))
        return ExpireDeclare(deal.deal_no)
    seated = [s.player for s in state.seats]
    if roll < 85 or not seated:
        return StartDeal(None, data.draw(st.binary(min_size=4, max_size=4), label="seed").hex())
    if roll < 93:
        return TopUp(data.draw(st.sampled_from(seated), label="top_up"), 50)
    return SitDown(f"p{tick}", data.draw(BUY_INS, label="buy_in"))


def check_settlement(variant: str, event: Event, pot_before: int, options: dict[str, Any]) -> None:
    """D-T38-01 and D-43-01 on one PotSettled: what left the pot is the pot before (or nothing),
    and the pot afterwards holds exactly what the payers paid."""
    moved = event.data["transfers"]
    won = sum(t["amount"] for t in moved if t["from"] == f"pot:{TABLE}")
    assert all(f"bets:{TABLE}" not in (t["from"], t["to"]) for t in moved)  # JP-12: the bets apart
    paid = sum(t["amount"] for t in moved if t["to"] == f"pot:{TABLE}")
    assert won in (0, pot_before)
    assert event.data["pot"] == pot_before - won + paid
    winners = set(event.data["winners"])
    payers = {t["from"].rsplit(":", 1)[1] for t in moved if t["to"] == f"pot:{TABLE}"}
    assert not winners & payers  # a winner never pays (D-43-01)
    if variant == "thirty_eight" and not options["max_loss"] and options["stack_policy"] == "allow_debt":
        assert all(t["amount"] % pot_before == 0 for t in moved if t["to"] == f"pot:{TABLE}")  # levels


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant=st.sampled_from(sorted(OPTIONS)))
def test_random_sessions_conserve_chips_and_cards(data: st.DataObject, variant: str) -> None:
    options = data.draw(OPTIONS[variant], label="options")
    players = data.draw(st.integers(2, 6), label="players")
    stacked = data.draw(st.booleans(), label="stacked")
    decks = [data.draw(st.permutations(PACK), label="deck") for _ in range(2)] if stacked else None
    session, books, cards = Session(), BooksWithBets(), Cards()
    snapshots: list[tuple[int, dict[str, Any]]] = []
    commands: list[Command] = [
        OpenTable(TABLE, variant, options, stacked_decks=decks, stacked_allowed=stacked)
    ]
    commands += [SitDown(f"s{i}", data.draw(BUY_INS, label="buy_in")) for i in range(players)]
    clock = 0
    for tick in range(90):
        command = commands[tick] if tick < len(commands) else random_command(data, session, tick)
        clock += data.draw(st.sampled_from([1, 1, 40]), label="wait")
        before = session.state
        try:
            new = session.do(command, later(clock))
        except DomainError:
            assert session.state is before
            continue
        pot = before.pot
        for event in new:
            books.post(event)
            cards.post(event)
            json.dumps(event.data)
            if event.type == POT_SETTLED:
                check_settlement(variant, event, pot, options)
            moved = event.data.get("transfers", ())
            pot += sum(t["amount"] for t in moved if t["to"] == f"pot:{TABLE}")
            pot -= sum(t["amount"] for t in moved if t["from"] == f"pot:{TABLE}")
        books.check(session, options)
        cards.check(session)
        if session.state.live is None:
            assert session.state.bets == 0  # D-BET: every bet is awarded
        if len(snapshots) < 4 and data.draw(st.integers(0, 9), label="snapshot") == 0:
            snapshots.append((len(session.events), state_to_json(session.state)))
    assert_folds_back(session, snapshots)
