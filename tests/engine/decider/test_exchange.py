"""EXC-01..03, Q-EXC-01/02, D-GEN-02: the exchanges before the declare (table option `exchange`).

Seats a, b, c clockwise; deal 1: dealer a, order b, c, a (the dealer's left first). Stacked decks
deal the hands one card at a time; the cards after them are the stock, top first.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.cards import ALL_CARDS
from tables.engine.decider.commands import Declare, Exchange, ExpireDeclare, PassCard, StartDeal
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    CARD_PASSED,
    CARDS_DEALT,
    CARDS_DRAWN,
    CARDS_EXCHANGED,
    DECLARE_OPENED,
    EXCHANGE_OPENED,
    PASS_OPENED,
    SHOWDOWN_HELD,
    STEP_STARTED,
    STOCK_RESHUFFLED,
    Event,
    parse,
)
from tables.engine.decider.evolve import fold
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.decider.state import TableState
from tables.engine.decider.steps.base import deck_for
from tables.engine.decider.variants import get_variant, validate_options, variant_catalog
from tables.engine.decider.view import Viewer, legal_actions, phase, redact_event, table_view
from tables.engine.deck import Deck, reshuffle_seed, seed_key, shuffle

from .helpers import (
    SEED,
    Session,
    data_of,
    facts,
    later,
    of_type,
    one,
    positions,
    roundtrip,
    stack_deck,
    start,
    table,
    transfers,
)

TWO = [*stack_deck("As Ks", "Qd Jd", "2c 7h"), "Ah", "Kh", "Qh", "Jh", "Th"]  # b, c, a; stock
THREE = [*stack_deck("As Ks 4d", "Qd Jd 9c", "2c 7h 5s"), "Ah", "Kh", "Qh", "Jh", "Th", "3c"]
LETTERS = "abcdefghijklmnopqrstuvwxy"  # 25 players


def draw_table(deck: list[str] = TWO, variant: str = "guts2", **options: object) -> Session:
    session = table("abc", decks=[deck], variant=variant, exchange="draw", ante=5, **options)
    start(session)
    return session


def hand(session: Session, player: str) -> tuple[str, ...]:
    deal = session.state.deal
    assert deal is not None
    return deal.hand_of(player)


def cards_everywhere(state: TableState) -> list[str]:
    """Every card of the live deal: in hands, discarded (not yet reshuffled), in the stock."""
    deal = state.live
    assert deal is not None
    stock = [str(card) for card in deck_for(state, deal).stock[deal.dealt :]]
    return [*(card for held in deal.hands for card in held), *deal.discards, *stock]


# --- EXC-01, Q-EXC-01: two-card draw, in turn, from the stock ----------------------------------------


def test_exc_01_q_exc_01_draw_in_turn_from_the_dealers_left_replacements_from_the_stock() -> None:
    session = table("abc", decks=[TWO], exchange="draw", ante=5)
    started = start(session)
    assert data_of(one(started, EXCHANGE_OPENED)) == {
        "deal_no": 1,
        "player": "b",
        "most": 2,
        "deadline": "2026-11-29T12:00:30.000000Z",
    }
    assert phase(session.state) == "exchange"
    assert DECLARE_OPENED not in facts(started)
    b = session.do(Exchange("b", 1, ["ks"]))  # any spelling of a card in hand
    assert one(b, CARDS_DRAWN).data == {
        "deal_no": 1,
        "player": "b",
        "count": 1,
        "discarded": ["Ks"],
        "drawn": ["Ah"],
        "cards": ["As", "Ah"],
        "timed_out": False,
    }
    assert one(b, EXCHANGE_OPENED).data["player"] == "c"
    c = session.do(Exchange("c", 1, []))  # stands pat
    assert one(c, CARDS_DRAWN).data["cards"] == ["Qd", "Jd"]
    a = session.do(Exchange("a", 1, ["2c", "7h"]))  # EXC-01: one or both
    assert one(a, CARDS_DRAWN).data["drawn"] == ["Kh", "Qh"]
    assert one(a, DECLARE_OPENED).data["players"] == ["b"]  # then the declare, as usual
    assert session.state.live.discards == ("Ks", "2c", "7h")  # out of play


def test_exc_01_the_hands_after_the_draw_play_the_showdown() -> None:
    """b draws to a pair of aces, which beats a's king-queen; a matches the pot of 15."""
    session = draw_table()
    session.do(Exchange("b", 1, ["Ks"]))
    session.do(Exchange("c", 1, []))
    session.do(Exchange("a", 1, ["2c", "7h"]))
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert {h["player"]: h["cards"] for h in showdown["hands"]} == {"b": ["As", "Ah"], "a": ["Kh", "Qh"]}
    assert showdown["winners"] == ["b"]
    assert transfers(events)[-2:] == [("pot", "seat:b", 15), ("seat:a", "pot", 15)]


def test_q_exc_01_discards_are_out_of_play_the_next_cards_come_from_the_stock() -> None:
    """AO-07 after a draw: the extra cards follow the drawn ones in the stock; no discard returns."""
    session = draw_table(all_out="extra_card", declare_mode="simultaneous")
    session.do(Exchange("b", 1, ["Ks"]))
    session.do(Exchange("c", 1, ["Qd"]))
    session.do(Exchange("a", 1, []))
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    extra = [e.data["cards"][-1] for e in of_type(events, CARDS_DEALT)]
    assert extra == ["Qh", "Jh", "Th"]
    assert sorted(cards_everywhere(session.state)) == sorted(str(c) for c in ALL_CARDS)


def test_exc_02_three_card_draw_up_to_three() -> None:
    session = draw_table(THREE, "guts3")
    assert legal_actions(session.state, "b", later(1))[0]["max"] == 3
    drawn = session.do(Exchange("b", 1, ["As", "Ks", "4d"]))
    assert one(drawn, CARDS_DRAWN).data["cards"] == ["Ah", "Kh", "Qh"]
    assert session.fails(Exchange("c", 1, ["Qd", "Jd", "9c", "Qd"])) == "invalid_discards"


def test_exc_01_guards() -> None:
    session = draw_table()
    assert session.fails(Exchange("c", 1, [])) == "not_your_turn"  # b draws first
    assert session.fails(Exchange("b", 1, ["Qd"])) == "invalid_card"  # not his card
    assert session.fails(Exchange("b", 1, ["1x"])) == "invalid_card"
    assert session.fails(Exchange("b", 1, ["As", "as"])) == "invalid_discards"
    assert session.fails(Exchange("b", 2, [])) == "wrong_deal"
    assert session.fails(Exchange("z", 1, [])) == "not_seated"
    assert session.fails(Declare("b", 1, "in")) == "not_your_turn"  # no declare yet
    assert session.fails(PassCard("b", 1, "As")) == "not_your_turn"
    session.do(Exchange("b", 1, []))
    assert session.fails(Exchange("b", 1, [])) == "already_exchanged"
    session.do(Exchange("c", 1, []))
    session.do(Exchange("a", 1, []))
    assert session.fails(Exchange("b", 1, [])) == "not_your_turn"  # the declare is open
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert session.fails(Exchange("b", 1, [])) == "deal_over"


def test_exc_01_legal_actions_offer_the_draw_to_the_player_whose_turn_it_is() -> None:
    session = draw_table()
    deadline = session.state.live.deadline
    assert legal_actions(session.state, "b", later(1))[0] == {
        "action": "exchange",
        "deal_no": 1,
        "min": 0,
        "max": 2,
        "choices": ["As", "Ks"],
        "deadline": deadline,
        "overdue": False,
    }
    assert [a["action"] for a in legal_actions(session.state, "c", later(1))] == ["sit_out"]
    assert table_view(session.state, Viewer("c"), later(1))["phase"] == "exchange"


def test_exc_01_a_timed_out_draw_stands_pat() -> None:  # DESIGN 2.8
    session = draw_table()
    assert session.do(ExpireDeclare(1), later(29)) == []  # not due yet
    expired = session.do(ExpireDeclare(1), later(31))
    assert one(expired, CARDS_DRAWN).data == {
        "deal_no": 1,
        "player": "b",
        "count": 0,
        "discarded": [],
        "drawn": [],
        "cards": ["As", "Ks"],
        "timed_out": True,
    }
    assert one(expired, EXCHANGE_OPENED).data["player"] == "c"
    assert session.do(ExpireDeclare(1), later(31)) == []  # c's turn is not due
    assert session.state.seat_of("b").timeouts == 0  # declares count, not draws


def test_exchange_none_is_the_default_and_writes_nothing() -> None:
    session = table("abc", decks=[TWO], ante=5)
    started = start(session)
    steps = session.state.rules.stages[0].steps
    assert [(stage, steps[step].kind) for stage, step in positions(started)] == [
        (1, "ante"),
        (1, "deal"),
        (1, "declare"),
    ]
    assert [step for _, step in positions(started)] == [0, 1, 3]
    assert validate_options("guts2", {})["exchange"] == "none"


def test_a_live_deal_logged_before_the_exchange_step_existed_plays_on() -> None:
    """Its StepStarted positions count the Guts steps without the exchange: each names the first
    step of its kind from there, and the deal goes on as it would have."""
    session = table("abc", decks=[TWO], ante=5)
    start(session)
    session.do(Declare("b", 1, "in"))
    steps = session.state.rules.stages[0].steps
    old: list[Event] = []
    for event in session.events:  # as logged then: StepStarted before each step
        if event.at_step is not None:
            stage, step = event.at_step
            old.append(
                parse(
                    STEP_STARTED,
                    {"deal_no": 1, "stage": stage, "step": step - (step >= 2), "kind": steps[step].kind},
                )
            )
            event = parse(event.type, data_of(event))
        old.append(event)
    assert [e.data["step"] for e in of_type(old, STEP_STARTED)] == [0, 1, 2]
    replayed = Session(old)
    assert replayed.state == session.state
    ended = replayed.declare(1, ("c", "out"), ("a", "in"))
    assert one(ended, SHOWDOWN_HELD).data["winners"] == ["b"]


def test_d_gh_03_the_ghost_hand_takes_no_part_in_the_draw() -> None:
    """The ghost is dealt last in each round and draws nothing; the stock starts after its cards;
    D-GEN-02 counts its hand and one full draw: 24 players at two-card Guts."""
    deck = [*stack_deck("As Ks", "Qd Jd", "2c 7h", "9s 9d"), "Ah", "Kh"]  # b, c, a, the ghost
    session = table("abc", decks=[deck], exchange="draw", ghost="always", ante=5)
    start(session)
    assert session.state.live.ghost == ("9s", "9d")
    assert one(session.do(Exchange("b", 1, ["Ks"])), CARDS_DRAWN).data["drawn"] == ["Ah"]
    session.do(Exchange("c", 1, []))
    opened = session.do(Exchange("a", 1, []))
    assert one(opened, DECLARE_OPENED).data["players"] == ["b"]
    assert session.state.live.ghost == ("9s", "9d")
    options = validate_options("guts2", {"exchange": "draw", "ghost": "always"})
    assert get_variant("guts2").capacity(options) == 24


# --- EXC-03, Q-EXC-02: the three-card pass to the left -------------------------------------------------


def pass_table() -> Session:
    session = table("abc", decks=[THREE], variant="guts3", exchange="pass_left", ante=5)
    start(session)
    return session


def test_exc_03_q_exc_02_everyone_passes_one_card_left_chosen_sealed() -> None:
    session = pass_table()
    opened = one(session.events, PASS_OPENED).data
    assert opened["players"] == ["b", "c", "a"]  # Q-EXC-02: all of them
    assert opened["direction"] == "left"
    assert phase(session.state) == "pass"
    action = legal_actions(session.state, "c", later(1))[0]
    assert (action["action"], action["direction"], action["choices"]) == ("pass", "left", ["Qd", "Jd", "9c"])
    assert of_type(session.do(PassCard("b", 1, "Ks")), CARDS_EXCHANGED) == []  # nothing seen yet
    session.do(PassCard("c", 1, "9c"))
    events = session.do(PassCard("a", 1, "2c"))
    swapped = {e.data["player"]: e.data for e in of_type(events, CARDS_EXCHANGED)}
    assert swapped["b"] == {
        "deal_no": 1,
        "player": "b",
        "gave": "Ks",
        "received": "2c",
        "cards": ["As", "4d", "2c"],
    }  # from a, on his right
    assert swapped["c"]["received"] == "Ks"  # from b
    assert swapped["a"]["received"] == "9c"  # from c
    assert one(events, DECLARE_OPENED).data["players"] == ["b"]
    assert hand(session, "a") == ("7h", "5s", "9c")


def test_exc_03_a_timed_out_player_passes_his_first_card() -> None:
    session = pass_table()
    session.do(PassCard("b", 1, "4d"))
    expired = session.do(ExpireDeclare(1), later(31))
    assert {e.data["player"]: e.data["card"] for e in of_type(expired, CARD_PASSED)} == {"c": "Qd", "a": "2c"}
    assert len(of_type(expired, CARDS_EXCHANGED)) == 3
    assert phase(session.state) == "declare"


def test_exc_03_pass_guards() -> None:
    session = pass_table()
    assert session.fails(PassCard("b", 1, "Qd")) == "invalid_card"
    assert session.fails(Exchange("b", 1, [])) == "not_your_turn"  # a pass, not a draw
    assert session.fails(Declare("b", 1, "in")) == "not_your_turn"
    session.do(PassCard("b", 1, "As"))
    assert session.fails(PassCard("b", 1, "Ks")) == "already_passed"


# --- secrets ---------------------------------------------------------------------------------------------


def test_exc_drawn_and_discarded_cards_are_secret_the_count_is_public() -> None:  # DESIGN 2.6
    session = draw_table()
    drawn = one(session.do(Exchange("b", 1, ["Ks"])), CARDS_DRAWN)
    mine = redact_event(drawn.type, drawn.data, Viewer("b"), deal_over=False)
    assert mine["drawn"] == ["Ah"]
    for viewer in (Viewer("c"), Viewer(None, "admin"), Viewer(None, "auditor")):
        seen = redact_event(drawn.type, drawn.data, viewer, deal_over=False)
        assert (seen["discarded"], seen["drawn"], seen["cards"], seen["count"]) == (None, None, None, 1)
    assert redact_event(drawn.type, drawn.data, Viewer("c"), deal_over=True)["drawn"] is None
    assert redact_event(drawn.type, drawn.data, Viewer(None, "auditor"), deal_over=True)["drawn"] == ["Ah"]
    view = table_view(session.state, Viewer("c"), later(1))
    assert "Ah" not in json.dumps(view)
    assert "Ks" not in json.dumps(view)


def test_exc_03_passed_and_received_cards_are_secret() -> None:
    session = pass_table()
    session.do(PassCard("b", 1, "Ks"))
    session.do(PassCard("c", 1, "9c"))
    exchanged = of_type(session.do(PassCard("a", 1, "2c")), CARDS_EXCHANGED)
    seen_by_c = [redact_event(e.type, e.data, Viewer("c"), deal_over=False) for e in exchanged]
    assert [s["cards"] for s in seen_by_c] == [None, ["Qd", "Jd", "Ks"], None]
    assert "2c" not in json.dumps(table_view(session.state, Viewer("c"), later(1)))


# --- options and D-GEN-02 ----------------------------------------------------------------------------------


def error_of(variant: str, options: dict) -> DomainError:
    with pytest.raises(DomainError) as caught:
        validate_options(variant, options)
    return caught.value


def test_exc_options_are_validated_at_opening() -> None:
    conflict = error_of("guts2", {"exchange": "draw", "all_out": "pass_right"})
    assert (conflict.code, conflict.detail["option"]) == ("invalid_option", "exchange")
    passing = error_of("guts3", {"exchange": "pass_left", "all_out": "pass_right"})
    assert passing.detail["option"] == "exchange"
    assert error_of("guts2", {"exchange": "pass_left"}).detail["option"] == "exchange"  # EXC-03: 3 cards
    assert error_of("guts3", {"exchange": "trade"}).detail["option"] == "exchange"
    allowed = validate_options("guts3", {"exchange": "pass_left", "all_out": "extra_card"})
    assert allowed["exchange"] == "pass_left"
    catalog = {v["name"]: v for v in variant_catalog()}
    option = next(o for o in catalog["guts3"]["options"] if o["name"] == "exchange")
    assert option["choices"] == ["none", "draw", "pass_left"]
    assert "EXC-01..03" in option["rule"]
    assert "exchange" not in get_variant("two_plus_one").option_index


def test_d_gen_02_a_draw_table_keeps_one_players_whole_draw_servable() -> None:
    """Hands plus one player's full draw fit in one pack: 25 players at two-card, 16 at three-card."""
    assert get_variant("guts2").capacity(validate_options("guts2", {"exchange": "draw"})) == 25
    assert error_of("guts2", {"exchange": "draw", "seats": 26}).detail["option"] == "seats"
    assert error_of("guts3", {"exchange": "draw", "seats": 17}).detail["option"] == "seats"
    assert validate_options("guts3", {"exchange": "pass_left", "seats": 17})["seats"] == 17


def big_table(decks: list[list[str]] | None = None) -> Session:
    session = table(LETTERS, decks=decks, exchange="draw", ante=1, seats=25)
    start(session)
    return session


def test_d_gen_02_the_stock_runs_out_the_earlier_discards_become_a_new_stock() -> None:
    """25 players hold 50 cards; the stock has two. b takes them; c's draw finds the stock empty,
    so b's discards (never c's own, never a live card) are shuffled into a new stock; a stacked
    deck appends them in the order discarded."""
    session = big_table([[str(card) for card in ALL_CARDS]])
    b_hand = list(hand(session, "b"))
    drawn = session.do(Exchange("b", 1, b_hand))
    assert one(drawn, CARDS_DRAWN).data["drawn"] == ["Ah", "As"]
    c_hand = list(hand(session, "c"))
    events = session.do(Exchange("c", 1, c_hand))
    assert facts(events)[:2] == [STOCK_RESHUFFLED, CARDS_DRAWN]
    assert one(events, STOCK_RESHUFFLED).data == {"deal_no": 1, "generation": 1, "count": 2, "cards": b_hand}
    assert one(events, CARDS_DRAWN).data["drawn"] == b_hand
    d_card = hand(session, "d")[0]
    events = session.do(Exchange("d", 1, [d_card]))
    assert one(events, STOCK_RESHUFFLED).data["generation"] == 2
    assert one(events, CARDS_DRAWN).data["drawn"] == c_hand[:1]
    assert session.state.live.discards == (d_card,)  # his own wait for later
    assert sorted(cards_everywhere(session.state)) == sorted(str(c) for c in ALL_CARDS)


def test_d_gen_02_reshuffles_are_provable_from_the_seed() -> None:
    """Each batch is put in pack order and shuffled with reshuffle_seed(seed, generation); the cards
    drawn are exactly the deck the seed and the batches give, in order."""
    session = big_table()
    for player in session.state.live.order:
        session.do(Exchange(player, 1, list(hand(session, player))))
    reshuffled = of_type(session.events, STOCK_RESHUFFLED)
    batches = [e.data["cards"] for e in reshuffled]
    assert [e.data["generation"] for e in reshuffled] == list(range(1, len(batches) + 1))
    assert len(batches) > 10
    drawn = [card for e in of_type(session.events, CARDS_DRAWN) for card in e.data["drawn"]]
    sequence = [str(card) for card in Deck.shuffled(SEED, reshuffles=batches).stock]
    assert drawn == sequence[50 : 50 + len(drawn)]
    first = [
        str(c) for c in shuffle(sorted(Deck.stacked(batches[0]).stock), seed_key(reshuffle_seed(SEED, 1)))
    ]
    assert sequence[52 : 52 + len(first)] == first
    held = [card for h in session.state.live.hands for card in h]
    assert len(set(held)) == 50  # no card held twice


# --- the fold ----------------------------------------------------------------------------------------------


def test_exchange_state_survives_the_json_round_trip_and_snapshots() -> None:
    session = big_table()
    for player in session.state.live.order[:5]:
        session.do(Exchange(player, 1, list(hand(session, player))))
    assert fold(roundtrip(session.events)) == session.state
    restored = state_from_json(json.loads(json.dumps(state_to_json(session.state))))
    assert restored == session.state
    for player in session.state.live.order[5:]:
        session.do(Exchange(player, 1, []))
    assert phase(session.state) == "declare"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant=st.sampled_from(["guts2", "guts3"]), players=st.integers(2, 25))
def test_d_gen_02_random_draws_never_lose_or_repeat_a_card(
    data: st.DataObject, variant: str, players: int
) -> None:
    """Any draws at any table size: every card is exactly once in a hand, the discards or the stock;
    the rebuilt state equals the live one."""
    players = min(players, 25 if variant == "guts2" else 16)
    session = table(LETTERS[:players], variant=variant, exchange="draw", ante=1, seats=players)
    session.do(StartDeal(None, data.draw(st.binary(min_size=8, max_size=8)).hex()))
    clock = 0
    while (deal := session.state.live) is not None and phase(session.state) == "exchange":
        clock += 100
        player = deal.awaiting[0]
        if data.draw(st.integers(0, 9)) == 0:
            assert session.do(ExpireDeclare(deal.deal_no), later(clock))
            continue
        held = list(deal.hand_of(player))
        discards = data.draw(st.lists(st.sampled_from(held), unique=True, max_size=len(held)))
        session.do(Exchange(player, deal.deal_no, discards), later(clock))
        assert sorted(cards_everywhere(session.state)) == sorted(str(c) for c in ALL_CARDS)
    assert fold(roundtrip(session.events)) == session.state
