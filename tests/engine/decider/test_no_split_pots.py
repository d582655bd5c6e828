"""No split pots (NSP-01, NSP-02, Q-NSP-01): option ties=no_split of two- and three-card Guts.
(The first cases are in test_settlement.py: test_nsp_01_02_..., test_q_nsp_01_...)"""

from __future__ import annotations

from tables.engine.decider.events import ANTES_POSTED, GAME_ENDED, POT_SETTLED

from .helpers import of_type, one, stack_deck, start, table, transfers

# Dealer a: b, c, d, a. b and c tie for best (A-K), d and a lose.
TIED = stack_deck("As Kd", "Ah Kc", "2c 7h", "3c 8h")
NEXT = stack_deck("Qs Qd", "9c 4d", "5s 6h", "8d 2s")  # dealer b: c, d, a, b; c best


def test_nsp_01_tied_best_hands_neither_receive_nor_pay() -> None:
    session = table(decks=[TIED], ante=10, ties="no_split")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    settled = one(events, POT_SETTLED).data
    assert settled["outcome"] == "no_split"
    assert settled["winners"] == ["b", "c"]
    assert settled["matchers"] == ["d", "a"]
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:d", "pot", 40), ("seat:a", "pot", 40)]
    assert session.stack("b") == session.stack("c") == 990  # only their antes


def test_nsp_02_the_pot_stays_with_the_losers_payments_added_and_is_played_for_next() -> None:
    session = table(decks=[TIED, NEXT], ante=10, ties="no_split")
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert session.state.pot == 40 + 80
    events = start(session)
    assert one(events, ANTES_POSTED).data["paid"] == []  # G2-05: the pot is not empty
    events = session.declare(2, ("c", "in"), ("d", "out"), ("a", "out"), ("b", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 120)]


def test_nsp_02_with_antes_every_deal() -> None:
    session = table(decks=[TIED, NEXT], ante=10, ties="no_split", ante_rule="every_deal")
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    assert session.state.pot == 40  # all tied: nobody paid
    start(session)
    assert session.state.pot == 80


def test_q_nsp_01_a_pot_grown_past_the_limit_sends_the_excess_to_the_reserve() -> None:
    """Q-NSP-01: RES-01 applies to the pot kept under no_split (D-RES-01)."""
    session = table(decks=[TIED], ante=10, ties="no_split", pot_limit=100)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED))[-1] == ("pot", "reserve", 20)
    assert (session.state.pot, session.state.reserve) == (100, 20)
    assert not of_type(events, GAME_ENDED)


def test_nsp_01_three_card_guts() -> None:
    tie = stack_deck("5h 6h 7h", "5d 6d 7d", "2c 9d 4s")  # b, c: identical straight flushes
    session = table("abc", variant="guts3", decks=[tie], ante=10, ties="no_split")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert one(events, POT_SETTLED).data["outcome"] == "no_split"
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:a", "pot", 30)]
