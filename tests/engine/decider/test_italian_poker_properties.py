"""Italian poker over random sessions (D-IT-02, D-GEN-02, IT-14): every event double entry and
conserving the table's chips, the pot, every side pot account and the bets account holding what
the folded state says after every event, no card dealt twice (reshuffles included), each pot paid
only to players still in who contributed to it, from its own account, and the pots summing to the
contributions, snapshots plus the tail folding to the live state (rebuild equals live on
PostgreSQL: tests/tables/test_italian_rebuild.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import Bet, Exchange, ExpireDeclare, StartDeal, TopUp
from tables.engine.decider.events import BET_MADE, POTS_AWARDED
from tables.engine.decider.snapshot import state_to_json
from tables.engine.decider.view import legal_actions

from .helpers import T0, Ledger, Session, assert_folds_back, later, table
from .test_italian_side_pots import assert_accounts_follow_the_state

NAMES = "abcdefghij"
DEAL_ACCOUNTS = ("pot:t1", "bets:t1", "sidepot:t1:")  # the pot, the bets, the side pots (D-IT-02)


def _cards_unique(session: Session) -> None:
    deal = session.state.live
    if deal is None:
        return
    held = [card for hand in deal.hands for card in hand]
    assert len(held) == len(set(held)), held
    assert not set(held) & set(deal.discards)


def _check_award(ledger: Ledger, event: Any) -> None:
    """Each pot to its eligible players only, eligible players contributed, the pots and the
    uncalled bet are every chip of the pot and the bets account (before the award)."""
    total = sum(p["amount"] for p in event.pots) + (event.returned["amount"] if event.returned else 0)
    assert total == sum(ledger.balances[a] for a in ledger.balances if a.startswith(DEAL_ACCOUNTS))
    for pot in event.pots:
        assert set(pot["winners"]) <= set(pot["eligible"]) <= set(pot["contributors"])
        assert sum(pot["shares"].values()) == pot["amount"]
        assert pot["winners"]
        reason, account = (
            ("pot", "pot:t1") if pot["pot"] == 0 else (f"side_pot_{pot['pot']}", f"sidepot:t1:{pot['pot']}")
        )
        paid = [t for t in event.transfers if t.reason == reason]
        assert {t.source for t in paid} <= {account}  # D-IT-02: each pot from its own account
        assert sum(t.amount for t in paid) == pot["amount"] == ledger.balances[account]


def _act(data: st.DataObject, session: Session, offer: dict[str, Any], player: str) -> Any:
    deal_no = session.state.deal_no
    if offer["action"] == "exchange":
        hand = list(session.state.live.hand_of(player))
        count = data.draw(st.integers(0, offer["max"]), label="discards")
        discards = data.draw(st.permutations(hand), label="order")[:count]
        split = bool(set(discards) & set(offer.get("openers", ())))
        return Exchange(player, deal_no, discards, split_openers=split)
    action = data.draw(st.sampled_from(offer["choices"]), label="bet")
    low, most = offer["amounts"][action], offer.get("most", {}).get(action, offer["amounts"][action])
    return Bet(player, deal_no, action, data.draw(st.integers(low, most), label="amount"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 10), st.sampled_from(["fixed", "pot"]))
def test_d_it_02_property_conservation_pots_and_cards(data: st.DataObject, players: int, limit: str) -> None:
    names = NAMES[:players]
    session = table(names, variant="italian", ante=5, buy_in=40, min_buy_in=20, limit=limit)
    for name in names:
        extra = data.draw(st.integers(0, 200), label=f"top_up {name}")
        if extra:
            session.do(TopUp(name, extra))
    ledger = Ledger()
    for event in session.events:
        ledger.post(event)
    snapshots: list[tuple[int, dict[str, Any]]] = []
    clock = 0
    for _ in range(data.draw(st.integers(1, 4), label="deals")):
        seed = data.draw(st.binary(min_size=8, max_size=8), label="seed").hex()
        if len([s for s in session.state.seats if s.stack >= 5]) < 2:
            assert session.fails(StartDeal(None, seed)) == "not_enough_players"
            break
        started = session.do(StartDeal(None, seed))
        for event in started:
            ledger.post(event)
        for _step in range(400):
            deal = session.state.live
            if deal is None:
                break
            _cards_unique(session)
            if data.draw(st.integers(0, 9), label="snapshot") == 0:
                snapshots.append((len(session.events), state_to_json(session.state)))
            before, count = session.state, len(session.events)
            player = deal.awaiting[0]
            offers = [
                a for a in legal_actions(session.state, player, T0) if a["action"] in ("bet", "exchange")
            ]
            if not offers or data.draw(st.integers(0, 19), label="timeout") == 0:
                clock += 3600
                session.do(ExpireDeclare(deal.deal_no), later(clock))
            else:
                session.do(_act(data, session, offers[0], player), later(clock))
            for event in session.events[count:]:
                if event.type == POTS_AWARDED:
                    _check_award(ledger, event)
                ledger.post(event)
                if event.type == BET_MADE:
                    assert event.amount <= before.stack_of(event.player)
        assert session.state.live is None
        assert session.state.bets == 0
        for seat in session.state.seats:
            assert ledger.balances[f"seat:t1:{seat.player}"] == seat.stack >= 0
        assert ledger.balances["pot:t1"] == session.state.pot
    assert_folds_back(session, snapshots)
    assert_accounts_follow_the_state(session.events)
