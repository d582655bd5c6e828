"""The fairness proof of seeded deals of the betting games (DESIGN §2.7, D-GEN-02): Jacks and Piss
(four cards, the Kitty, the piss card, draws with the stock running out) and Three to Five (two
more cards to the "in" players) verify card by card."""

from __future__ import annotations

from types import SimpleNamespace

from tables.audit.deals import DealRecord
from tables.audit.fairness import proof_json
from tables.engine.decider.commands import Bet, Exchange
from tables.engine.decider.events import DEAL_STARTED, STOCK_RESHUFFLED
from tables.engine.decider.evolve import fold
from tables.engine.decider.view import Viewer
from tests.engine.decider.helpers import Session, start, table


def record_of(session: Session, first: int) -> DealRecord:
    before = fold(session.events[:first])
    events = tuple(
        SimpleNamespace(type=e.type, data=e.data, version=first + i + 1)
        for i, e in enumerate(session.events[first:])
    )
    assert events[0].type == DEAL_STARTED
    return DealRecord(table_id="t1", deal_no=1, before=before, events=events, over=True)  # type: ignore[arg-type]


def check_all_round(session: Session) -> None:
    while (deal := session.state.live) is not None:
        session.do(Bet(deal.awaiting[0], 1, "check"))


def test_jp_a_seeded_deal_with_the_kitty_and_reshuffled_draws_is_proven() -> None:
    players = "abcdefghij"  # ten and the Kitty: a stock of 7
    session = table(players, variant="jacks_and_piss", ante=1, seats=10, ghost="always")
    first = len(session.events)
    start(session)
    session.declare(1, *((p, "in") for p in session.state.live.order))
    for player in session.state.live.order:
        session.do(Exchange(player, 1, list(session.state.live.hand_of(player))))
    assert any(e.type == STOCK_RESHUFFLED for e in session.events)
    check_all_round(session)
    proof = proof_json(record_of(session, first), Viewer(None, "auditor"))
    assert proof["ok"] is True
    assert proof["reshuffles"]
    assert len(proof["dealt"]) == 10 * 4 + 4 + 1 + 40  # hands, the Kitty, the piss card, draws
    assert all(card["matches"] for card in proof["dealt"])


def test_t25_a_seeded_deal_with_the_two_more_cards_is_proven() -> None:
    session = table("abcd", variant="three_to_five", ante=1)
    first = len(session.events)
    start(session)
    order = session.state.live.order
    session.declare(1, (order[0], "in"), (order[1], "out"), (order[2], "in"), (order[3], "in"))
    check_all_round(session)
    proof = proof_json(record_of(session, first), Viewer(None, "auditor"))
    assert proof["ok"] is True
    assert len(proof["dealt"]) == 4 * 3 + 3 * 2
