"""Starting a deal: antes (G2-05, SL-03), the button (D-GEN-05), dealing (D-G2-01), the deck."""

from __future__ import annotations

from tables.engine.decider.commands import Declare, SitDown, StartDeal
from tables.engine.decider.events import (
    ANTES_POSTED,
    CARDS_DEALT,
    DEAL_ENDED,
    DEAL_STARTED,
    DECLARE_OPENED,
)
from tables.engine.deck import commitment, verify_deal

from .helpers import SEED, of_type, one, positions, stack_deck, start, table, transfers, types

DECK = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")


def test_deal_started_then_antes_cards_and_the_first_turn() -> None:
    events = start(table(decks=[DECK], ante=5))
    assert types(events) == [DEAL_STARTED, ANTES_POSTED, *[CARDS_DEALT] * 4, DECLARE_OPENED]
    assert positions(events) == [(1, 0), (1, 1), (1, 3)]  # ante, deal, declare (no exchange)
    started = events[0].data
    assert started["deal_no"] == 1
    assert started["dealer"] == "a"
    assert started["participants"] == ["b", "c", "d", "a"]
    assert started["stacked"] is True


def test_g2_05_antes_when_the_pot_is_empty() -> None:
    session = table(decks=[DECK], ante=5)
    events = start(session)
    assert transfers(of_type(events, ANTES_POSTED)) == [
        ("seat:b", "pot", 5),
        ("seat:c", "pot", 5),
        ("seat:d", "pot", 5),
        ("seat:a", "pot", 5),
    ]
    assert session.state.pot == 20


def test_g2_05_no_antes_while_the_pot_carries() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))  # c matches: pot 20
    events = start(session)
    antes = one(events, ANTES_POSTED).data
    assert antes["due"] is False
    assert antes["paid"] == []
    assert antes["transfers"] == []
    assert session.state.pot == 20


def test_sl_03_ante_every_deal_option() -> None:
    session = table(decks=[DECK], ante=5, ante_rule="every_deal")
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    start(session)
    assert len(transfers(of_type(session.events[-9:], ANTES_POSTED))) == 4
    assert session.state.pot == 40


def test_d_gen_05_the_button_passes_clockwise() -> None:
    session = table(decks=[DECK], ante=5)
    dealers = []
    for deal_no in (1, 2, 3, 4, 5):
        started = one(start(session), DEAL_STARTED).data
        dealers.append(started["dealer"])
        order = started["participants"]
        for player in order[:-1]:
            session.do(Declare(player, deal_no, "out"))  # the dealer is forced in (G2-10)
    assert dealers == ["a", "b", "c", "d", "a"]


def test_d_gen_05_participants_run_clockwise_from_the_dealers_left() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"))
    assert one(start(session), DEAL_STARTED).data["participants"] == ["c", "d", "a", "b"]


def test_g2_06_d_g2_01_one_card_at_a_time_clockwise_from_the_dealers_left() -> None:
    deck = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c"]
    events = start(table(decks=[deck]))
    dealt = {e.data["player"]: e.data["cards"] for e in of_type(events, CARDS_DEALT)}
    assert dealt == {"b": ["As", "Ts"], "c": ["Kd", "9d"], "d": ["Qh", "8h"], "a": ["Jc", "7c"]}


def test_3c_01_three_cards_each() -> None:
    events = start(
        table("abc", variant="guts3", decks=[["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s"]])
    )
    dealt = {e.data["player"]: e.data["cards"] for e in of_type(events, CARDS_DEALT)}
    assert dealt == {"b": ["As", "Jc", "8h"], "c": ["Kd", "Ts", "7c"], "a": ["Qh", "9d", "6s"]}


def test_stacked_decks_cycle_by_deal_number() -> None:
    other = stack_deck("2c 3d", "4h 5s", "6c 7d", "8h 9s")
    session = table(decks=[DECK, other], ante=5)
    for deal_no in (1, 2, 3):
        order = one(start(session), DEAL_STARTED).data["participants"]
        first = one(
            [
                e
                for e in session.events
                if e.type == CARDS_DEALT and e.data["deal_no"] == deal_no and e.data["player"] == order[0]
            ],
            CARDS_DEALT,
        )
        assert first.data["cards"] == (["As", "Ks"] if deal_no != 2 else ["2c", "3d"])
        for player in order[:-1]:
            session.do(Declare(player, deal_no, "out"))


def test_design_2_7_commitment_first_seed_at_the_end_and_the_deal_verifies() -> None:
    session = table(ante=5)
    events = session.do(StartDeal("a", SEED))
    started = one(events, DEAL_STARTED).data
    assert started["commitment"] == commitment(SEED)
    assert started["stacked"] is False
    order = started["participants"]
    by_player = {e.data["player"]: e.data["cards"] for e in of_type(events, CARDS_DEALT)}
    ended = session.declare(1, *((p, "out") for p in order[:-1]))
    assert one(ended, DEAL_ENDED).data["seed"] == SEED
    dealt_in_order = [by_player[order[i % 4]][i // 4] for i in range(8)]
    assert verify_deal(SEED, started["commitment"], dealt_in_order).ok


def test_a_deal_needs_a_seed_and_two_players() -> None:
    session = table("ab")
    assert session.fails(StartDeal(None, None)) == "invalid_seed"
    assert session.fails(StartDeal(None, "not hex")) == "invalid_seed"
    assert table("a").fails(StartDeal(None, SEED)) == "not_enough_players"
    assert session.fails(StartDeal("zed", SEED)) == "not_seated"


def test_start_deal_refused_during_a_deal() -> None:
    session = table(decks=[DECK])
    start(session)
    assert session.fails(StartDeal()) == "deal_in_progress"


def test_d_gen_06_a_player_who_cannot_cover_the_ante_sits_out() -> None:
    session = table("abc", decks=[DECK], ante=50, buy_in=60, min_buy_in=50, ante_rule="every_deal")
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"))  # a forced in, takes 150
    assert [session.stack(p) for p in "abc"] == [160, 10, 10]
    assert session.fails(StartDeal()) == "not_enough_players"
    session.do(SitDown("d", 100))
    started = one(start(session), DEAL_STARTED).data
    assert started["sat_out"] == ["b", "c"]
    assert started["participants"] == ["a", "d"]  # dealer d (seat 3)
    antes = one(session.events[-8:], ANTES_POSTED).data
    assert antes["paid"] == ["a", "d"]
    assert antes["sat_out"] == ["b", "c"]


def test_d_gen_06_allow_debt_deals_everyone_in() -> None:
    session = table(
        "abc",
        decks=[DECK],
        ante=50,
        buy_in=60,
        min_buy_in=50,
        ante_rule="every_deal",
        stack_policy="allow_debt",
    )
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"))
    started = one(start(session), DEAL_STARTED).data
    assert started["sat_out"] == []
    assert session.stack("c") == -40  # a negative seat balance
