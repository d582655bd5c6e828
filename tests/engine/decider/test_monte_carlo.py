"""Monte Carlo Guts (RULES.md §9): MC-01..15, MCA-01..03, MCA-06, MCA-07, D-MC-01, D-CAP, D-GEN-01,
D-3C-01, Q-MC-02, Q-MC-03, given/when/then on the pure decider.

§9 has no worked example with figures, so the figures here are derived from the rules. Players
"abcd" sit in that order; the first dealer is a, so deal 1 goes b, c, d, a (the dealer last), and
each deal passes the button one seat clockwise (D-GEN-05). Ante 10; buy-in 1000 = 100 antes (MC-08).
"""

from __future__ import annotations

from typing import Any

import pytest

from tables.engine.decider.commands import Bid, Declare, ExpireDeclare, Leave, PassCard, SitDown
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    BID_MADE,
    BID_OPENED,
    CARDS_DEALT,
    CARDS_EXCHANGED,
    DEAL_ENDED,
    DEAL_STARTED,
    DECK_COMPARED,
    DECLARE_OPENED,
    DECLARED,
    DECLARES_REVEALED,
    GAME_ENDED,
    GHOST_DEALT,
    OPEN_HAND_BOUGHT,
    PASS_OPENED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.money import loser_cost, terms_of
from tables.engine.decider.view import legal_actions, table_view
from tables.engine.decider.visibility import Viewer, redact_event
from tables.engine.variants import get_variant, validate_options

from .helpers import T0, Session, facts, later, of_type, one, stack_deck, start, table, transfers, types

ANTE, BUY_IN = 10, 1000
# b: pair of aces, c: pair of kings, d: queen high, a: five high (deal 1 order b, c, d, a)
HANDS = ("Ah Ad 9c", "Kh Kd 8c", "Qh Jd 7c", "5s 4h 2c")


def deck(*then: str, hands: tuple[str, ...] = HANDS) -> list[str]:
    """Three cards each (MC-01), then the next cards in deal order."""
    return [*stack_deck(*hands), *then]


def game(*decks: list[str], players: str = "abcd", variant: str = "monte_carlo", **options: Any) -> Session:
    options.setdefault("ante", ANTE)
    options.setdefault("min_buy_in", BUY_IN)
    return table(players, decks=decks or [deck()], variant=variant, buy_in=BUY_IN, **options)


def declare_all(session: Session, deal_no: int, **choices: str) -> list:
    """MC-10: every player chooses, sealed; the last choice reveals them all."""
    return session.declare(deal_no, *choices.items())


def stacks(session: Session) -> dict[str, int]:
    return {s.player: s.stack for s in session.state.seats}


def settled(events: list) -> dict[str, Any]:
    return one(events, POT_SETTLED).data


# --- the game -------------------------------------------------------------------------------------


def test_mc_01_three_cards_each_two_to_ten_players() -> None:
    variant = get_variant("monte_carlo")
    assert variant.cards_per_player == 3
    assert variant.option_index["seats"].maximum == 10  # PLAYERS_001
    assert validate_options("monte_carlo", {"seats": 2})["seats"] == 2
    with pytest.raises(DomainError) as caught:
        validate_options("monte_carlo", {"seats": 11})
    assert caught.value.detail["option"] == "seats"
    session = game()
    dealt = of_type(start(session), CARDS_DEALT)
    assert [(e.data["player"], len(e.data["cards"])) for e in dealt] == [
        ("b", 3),
        ("c", 3),
        ("d", 3),
        ("a", 3),
    ]


def test_mc_02_d_3c_01_straight_beats_flush_and_straight_flush_beats_trips() -> None:
    hands = ("9h 8d 7c", "Ah Jh 4h", "5s 5h 5c", "4d 3d 2d")  # straight, flush, trips, SF
    session = game(deck(hands=hands))
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["d"]  # trips beat straight
    session = game(deck(hands=hands))
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="in")
    shown = {h["player"]: h["category"] for h in one(events, SHOWDOWN_HELD).data["hands"]}
    assert shown == {"b": "straight", "c": "flush", "d": "three_of_a_kind", "a": "straight_flush"}
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["a"]


def test_mc_02_the_ranking_is_fixed_not_an_option() -> None:
    with pytest.raises(DomainError) as caught:
        validate_options("monte_carlo", {"ranking": "guts3_trips_high"})
    assert caught.value.detail["option"] == "ranking"


def test_mc_03_same_combination_the_higher_card_then_the_kicker_wins() -> None:
    hands = ("Kh Kd 9c", "Ks Kc Qs", "Qh Qd Ac", "5s 4h 2c")  # kings-9, kings-Q, queens
    session = game(deck(hands=hands))
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["c"]  # the queen kicker


def test_mc_04_identical_best_hands_take_the_pot_in_equal_shares() -> None:
    hands = ("Ah Kd 9c", "Ad Kh 9s", "Qh Jd 7c", "5s 4h 2c")
    session = game(deck(hands=hands))
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert settled(events)["outcome"] == "split"
    assert settled(events)["winners"] == ["b", "c"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 20),
        ("pot", "seat:c", 20),
        ("seat:d", "pot", 40),
    ]


def test_mc_04_q_mc_02_everyone_in_tied_shares_the_pot_and_ends_the_round() -> None:
    hands = ("Ah Kd 9c", "Ad Kh 9s", "As Kc 9d", "Ac Ks 9h")
    session = game(deck(hands=hands))
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="in")
    assert settled(events)["outcome"] == "all_tied"
    assert settled(events)["matchers"] == []  # nobody replenishes
    assert session.state.pot == 0
    assert one(events, GAME_ENDED).data["reason"] == "all_tied"


def test_mc_05_mc_06_a_round_runs_until_the_pot_is_taken_without_resistance() -> None:
    session = game()
    start(session)
    first = declare_all(session, 1, b="in", c="in", d="out", a="out")
    assert facts(first)[-2:] == [POT_SETTLED, DEAL_ENDED]  # MC-06: settled, then over
    assert GAME_ENDED not in types(first)  # c must replenish
    assert session.state.game_open
    start(session)  # deal 2, same round
    second = declare_all(session, 2, c="in", d="out", a="out", b="out")
    assert session.state.deal.game_no == 1
    assert settled(second)["outcome"] == "uncontested"
    assert one(second, GAME_ENDED).data == {"game_no": 1, "reason": "uncontested", "final": False}
    start(session)
    assert session.state.deal.game_no == 2  # a new round


def test_mc_05_an_all_out_deal_does_not_end_the_round() -> None:
    session = game()
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="out", a="out")
    assert GAME_ENDED not in types(events)
    assert session.state.game_open


def test_mc_07_a_player_seated_during_a_round_is_dealt_in_at_the_next_round() -> None:
    session = game()
    start(session)
    declare_all(session, 1, b="in", c="in", d="out", a="out")  # the round goes on
    session.do(SitDown("e", BUY_IN))
    assert session.state.waiting == ("e",)
    second = start(session)
    started = one(second, DEAL_STARTED).data
    assert "e" not in started["participants"]
    assert started["sat_out"] == ["e"]
    assert "e" not in one(second, ANTES_POSTED).data["paid"]
    declare_all(session, 2, c="in", d="out", a="out", b="out")  # uncontested: round over
    assert session.state.waiting == ()
    third = start(session)
    assert "e" in one(third, DEAL_STARTED).data["participants"]
    view = table_view(session.state, Viewer("e"), T0)
    assert {s["player"]: s["waiting"] for s in view["seats"]}["e"] is False


def test_mc_07_a_player_seated_between_rounds_plays_at_once() -> None:
    session = game(players="ab")
    start(session)
    declare_all(session, 1, b="in", a="out")  # uncontested: round over
    session.do(SitDown("c", BUY_IN))
    assert session.state.waiting == ()
    assert "c" in one(start(session), DEAL_STARTED).data["participants"]


def test_mc_07_a_round_that_cannot_go_on_without_the_newcomers_takes_them_in() -> None:
    """Interpretation: with fewer than two round players left, the waiting players are dealt in."""
    session = game(players="abc")
    start(session)
    declare_all(session, 1, b="in", c="in", a="out")  # round goes on
    session.do(SitDown("d", BUY_IN))
    session.do(Leave("a"))
    session.do(Leave("b"))
    started = one(start(session), DEAL_STARTED).data
    assert sorted(started["participants"]) == ["c", "d"]
    assert session.state.waiting == ()


def test_mc_07_the_waiting_seat_shows_in_the_view() -> None:
    session = game()
    start(session)
    declare_all(session, 1, b="in", c="in", d="out", a="out")
    session.do(SitDown("e", BUY_IN))
    view = table_view(session.state, Viewer("a"), T0)
    assert {s["player"]: s["waiting"] for s in view["seats"]} == {
        "a": False,
        "b": False,
        "c": False,
        "d": False,
        "e": True,
    }


def test_mc_08_the_minimum_buy_in_is_100_antes() -> None:
    assert validate_options("monte_carlo", {"ante": 10})["min_buy_in"] == 1000
    assert validate_options("monte_carlo", {"ante": 10, "min_buy_in": 1500})["min_buy_in"] == 1500
    with pytest.raises(DomainError) as caught:
        validate_options("survivor", {"ante": 10, "min_buy_in": 999})
    assert caught.value.detail == {"option": "min_buy_in", "minimum": 1000}
    session = game()
    assert session.fails(SitDown("e", 999)) == "invalid_amount"
    session.do(SitDown("e", 1000))


def test_mc_09_every_player_antes_before_every_deal_then_three_cards() -> None:
    session = game()
    first = start(session)
    assert one(first, ANTES_POSTED).data["paid"] == ["b", "c", "d", "a"]
    assert facts(first)[:2] == [DEAL_STARTED, ANTES_POSTED]
    declare_all(session, 1, b="out", c="out", d="out", a="out")  # the pot (40) carries
    second = start(session)
    assert one(second, ANTES_POSTED).data["paid"] == ["c", "d", "a", "b"]  # even with a pot
    assert session.state.pot == 80


def test_mc_10_the_declare_is_simultaneous_and_sealed() -> None:
    session = game()
    opened = one(start(session), DECLARE_OPENED).data
    assert (opened["mode"], opened["players"]) == ("simultaneous", ["b", "c", "d", "a"])
    first = session.do(Declare("a", 1, "in"))
    assert types(first) == [DECLARED]
    assert first[0].data["sealed"] is True
    events = declare_all(session, 1, b="in", c="out", d="out")
    assert one(events, DECLARES_REVEALED).data["choices"] == {"b": "in", "c": "out", "d": "out", "a": "in"}
    with pytest.raises(DomainError) as caught:
        validate_options("monte_carlo", {"declare_mode": "sequential"})
    assert caught.value.detail["option"] == "declare_mode"


def test_mc_11_the_best_hand_takes_the_pot() -> None:
    session = game()
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="in")
    assert settled(events)["winners"] == ["b"]
    assert ("pot", "seat:b", 40) in transfers(of_type(events, POT_SETTLED))


def test_mc_11_g2_11_a_lone_in_takes_the_pot_unseen() -> None:
    session = game()
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="in", a="out")
    assert settled(events)["outcome"] == "uncontested"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:d", 40)]
    assert SHOWDOWN_HELD not in types(events)  # no need to show
    assert session.state.deal.shown == ()


def test_mc_12_the_losers_replenish_the_pot_together_in_equal_shares() -> None:
    session = game()
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert settled(events)["matchers"] == ["c", "d"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 40),
        ("seat:c", "pot", 20),
        ("seat:d", "pot", 20),
    ]
    assert session.state.pot == 40  # one pot amount
    assert stacks(session) == {"a": 990, "b": 1030, "c": 970, "d": 970}


def test_mc_12_d_gen_01_the_payers_nearest_the_dealers_left_pay_the_odd_chips() -> None:
    """Five players ante 10: a pot of 50 shared by three losers is 17 + 17 + 16."""
    hands = ("Ah Ad 9c", "Kh Kd 8c", "Qh Jd 7c", "5s 4h 2c", "6s 4d 3c")  # b, c, d, e, a
    session = game(deck(hands=hands), players="abcde")
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", e="in", a="out")
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 50),
        ("seat:c", "pot", 17),
        ("seat:d", "pot", 17),
        ("seat:e", "pot", 16),
    ]
    assert session.state.pot == 50  # no chip dropped


def test_mc_13_d_cap_the_replenished_amount_is_capped_at_50_antes() -> None:
    """Thirteen all-out deals carry 13 x 40 = 520; deal 14 (dealer b: c gets the aces, d the
    kings) antes 40 more: c takes 560 and d, the only loser, replenishes 50 antes = 500, not 560
    (CAP_PAY_LIMIT_ONLY: no reserve)."""
    session = game()
    for deal_no in range(1, 14):
        start(session)
        declare_all(session, deal_no, **dict.fromkeys("abcd", "out"))
    assert session.state.pot == 520
    start(session)
    assert session.state.live.order == ("c", "d", "a", "b")
    declare = legal_actions(session.state, "d", T0)
    assert next(a for a in declare if a["action"] == "declare")["in_cost"] == 500  # D-GEN-06
    events = declare_all(session, 14, c="in", d="in", a="out", b="out")
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 560), ("seat:d", "pot", 500)]
    assert (session.state.pot, session.state.reserve) == (500, 0)


def test_mc_13_the_cap_in_antes_is_an_option() -> None:
    assert get_variant("monte_carlo").option_index["replenish_cap"].default == 50
    assert loser_cost(2000, terms_of(validate_options("monte_carlo", {"ante": 10}))) == 500
    session = game(replenish_cap=3)  # 30 chips
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 40),
        ("seat:c", "pot", 15),
        ("seat:d", "pot", 15),
    ]
    session = game(replenish_cap=0)  # no cap: the whole pot
    assert loser_cost(2000, terms_of(session.state.opts)) == 2000


def test_mc_14_d_mc_01_replenishers_skip_the_next_deals_ante_only() -> None:
    session = game()
    start(session)
    declare_all(session, 1, b="in", c="in", d="in", a="out")  # c, d replenish
    second = start(session)  # order c, d, a, b
    assert one(second, ANTES_POSTED).data["paid"] == ["a", "b"]
    assert one(second, ANTES_POSTED).data["exempt"] == ["c", "d"]
    assert session.state.pot == 60
    declare_all(session, 2, c="in", d="in", a="out", b="out")  # c beats d: d replenishes
    third = start(session)
    assert one(third, ANTES_POSTED).data["paid"] == ["a", "b", "c"]  # c antes again; d skips


def test_mc_15_everyone_out_carries_the_pot() -> None:
    session = game()
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="out", a="out")
    assert settled(events)["outcome"] == "all_out_carry"
    assert transfers(of_type(events, POT_SETTLED)) == []
    assert session.state.pot == 40
    assert SHOWDOWN_HELD in types(events)
    assert one(events, SHOWDOWN_HELD).data["hands"] == []  # nobody shows


def test_d_gen_06_in_needs_the_stack_to_cover_the_replenishment() -> None:
    session = game()
    start(session)
    assert legal_actions(session.state, "b", T0)[0]["in_cost"] == 40


# --- the agreements (MCA) -------------------------------------------------------------------------


def test_mca_01_nobody_in_the_best_hand_replenishes_the_pot() -> None:
    session = game(all_out="best_matches")
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="out", a="out")
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["b"]  # everyone shows
    assert settled(events)["matchers"] == ["b"]
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 40)]
    assert session.state.pot == 80
    assert GAME_ENDED not in types(events)  # b was obliged: round on
    assert one(start(session), ANTES_POSTED).data["paid"] == ["c", "d", "a"]  # D-MC-01


def test_mca_02_a_lone_in_beats_the_decks_top_two_cards_and_takes_the_pot() -> None:
    session = game(deck("Kc", "Ks"), lone_in="vs_deck")
    start(session)
    events = declare_all(session, 1, b="in", c="out", d="out", a="out")
    compared = one(events, DECK_COMPARED).data
    assert (compared["deck_cards"], compared["winner"]) == (["Kc", "Ks"], "player")
    assert compared["deck_value"] == "Pair of kings"
    assert settled(events)["outcome"] == "beat_the_deck"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 40)]
    assert one(events, GAME_ENDED).data["reason"] == "beat_the_deck"  # nobody replenishes


def test_mca_02_stronger_deck_cards_make_him_replenish_the_pot() -> None:
    session = game(deck("2h", "2s"), lone_in="vs_deck")
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="in", a="out")  # d: queen high
    assert one(events, DECK_COMPARED).data["winner"] == "deck"
    assert settled(events)["matchers"] == ["d"]
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:d", "pot", 40)]
    assert session.state.pot == 80
    assert GAME_ENDED not in types(events)
    assert one(start(session), ANTES_POSTED).data["exempt"] == ["d"]  # D-MC-01


def test_mca_02_q_mc_03_two_cards_are_a_pair_or_high_card_and_never_tie_three() -> None:
    """Q-MC-03 (a): the two cards rank as pair or high card in the three-card order; the missing
    third card counts below any card, so the same pair or the same two top cards lose to three."""
    session = game(deck("Ac", "As"), lone_in="vs_deck")  # b holds aces with a 9
    start(session)
    events = declare_all(session, 1, b="in", c="out", d="out", a="out")
    assert one(events, DECK_COMPARED).data["winner"] == "player"
    session = game(deck("Qs", "Js"), lone_in="vs_deck")  # d holds Q-J-7
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="in", a="out")
    compared = one(events, DECK_COMPARED).data
    assert compared["winner"] == "player"
    assert compared["deck_value"] == "Queen high, jack kicker"  # no flush of two


def test_mca_02_the_deck_cards_count_against_the_pack() -> None:
    assert get_variant("monte_carlo").capacity(validate_options("monte_carlo", {"lone_in": "vs_deck"})) == 16


def test_mca_03_an_extra_pot_limit_caps_what_the_losers_replenish() -> None:
    session = game(pot_limit=30)
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 40),
        ("seat:c", "pot", 15),
        ("seat:d", "pot", 15),
    ]
    assert session.state.reserve == 0


def test_mca_03_cap_01_under_the_reserve_preset_the_excess_waits_in_the_reserve() -> None:
    session = game(pot_limit=30, cap_rule="reserve")
    start(session)  # antes 40: 30 + 10
    assert (session.state.pot, session.state.reserve) == (30, 10)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert settled(events)["pot"] == 30  # 30 replenished
    assert (session.state.pot, session.state.reserve) == (30, 10)


def test_mca_06_everyone_out_passes_a_card_right_then_declares_again() -> None:
    session = game(all_out="pass_right")
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="out", a="out")
    assert one(events, PASS_OPENED).data["players"] == ["b", "c", "d", "a"]
    session.do(PassCard("b", 1, "9c"))
    session.do(PassCard("c", 1, "8c"))
    session.do(PassCard("d", 1, "7c"))
    events = session.do(PassCard("a", 1, "2c"))
    exchanged = {e.data["player"]: e.data["cards"] for e in of_type(events, CARDS_EXCHANGED)}
    assert exchanged["b"] == ["Ah", "Ad", "8c"]  # from c, on his left
    assert exchanged["a"] == ["5s", "4h", "9c"]  # from b
    assert one(events, DECLARE_OPENED).data["mode"] == "simultaneous"
    events = declare_all(session, 1, b="in", c="in", d="out", a="out")
    assert settled(events)["winners"] == ["b"]


def test_mca_07_everyone_out_deals_one_more_card_and_the_best_three_count() -> None:
    session = game(deck("2h", "2d", "Kc", "3s"), all_out="extra_card")  # b, c, d, a
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="out", a="out")
    extra = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], len(e.data["cards"]), e.data["extra"]) for e in extra] == [
        ("b", 4, True),
        ("c", 4, True),
        ("d", 4, True),
        ("a", 4, True),
    ]
    assert one(events, DECLARE_OPENED).data["mode"] == "simultaneous"
    events = declare_all(session, 1, b="out", c="out", d="in", a="in")
    shown = {h["player"]: h["value"] for h in one(events, SHOWDOWN_HELD).data["hands"]}
    assert shown == {
        "d": "Three-card straight, king high",  # K-Q-J of Qh Jd 7c Kc
        "a": "Three-card straight, five high",
    }  # 5-4-3 of 5s 4h 2c 3s
    assert settled(events)["winners"] == ["d"]
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:d", 40), ("seat:a", "pot", 40)]


def open_deck(hand: str) -> list[str]:
    """MCA-05: the open hand is dealt last in each round of dealing (D-GH-03, by analogy)."""
    return stack_deck(*HANDS, hand)


def test_mca_05_the_open_hand_is_dealt_face_up_last_in_each_round_and_public() -> None:
    session = game(open_deck("Ks Kc 8d"), open_hand="face_up")
    events = start(session)
    dealt = one(events, GHOST_DEALT)
    assert dealt.data == {"deal_no": 1, "cards": ["Ks", "Kc", "8d"], "face": "up"}
    assert types(events).index(GHOST_DEALT) > max(i for i, t in enumerate(types(events)) if t == CARDS_DEALT)
    for viewer in (Viewer("c"), Viewer(None), Viewer("x", "auditor")):
        assert redact_event(dealt.type, dealt.data, viewer, deal_over=False)["cards"] == ["Ks", "Kc", "8d"]
    ghost = table_view(session.state, Viewer(None), T0)["deal"]["ghost"]
    assert ghost == {
        "cards": ["Ks", "Kc", "8d"],
        "card_count": 3,
        "shown": False,
        "won": False,
        "face_up": True,
    }
    assert session.state.live.dealt == 15  # D-GEN-02: its cards


def test_mca_05_d_gh_02_every_in_player_must_beat_the_open_hand_a_tie_loses() -> None:
    session = game(open_deck("Ks Kc 8d"), open_hand="face_up")  # = c's kings with an 8
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="out", a="out")
    showdown = one(events, SHOWDOWN_HELD).data
    assert (showdown["winners"], showdown["losers"]) == (["b"], ["c"])
    assert showdown["ghost"]["won"] is False
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 40), ("seat:c", "pot", 40)]


def test_mca_05_q_mc_05_when_the_open_hand_wins_the_in_players_replenish_and_the_pot_stays() -> None:
    session = game(open_deck("7s 7h 7d"), open_hand="face_up")  # trips
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="out", a="out")
    assert one(events, SHOWDOWN_HELD).data["ghost"]["won"] is True
    assert settled(events)["outcome"] == "ghost_won"
    assert settled(events)["winners"] == []
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 20), ("seat:c", "pot", 20)]
    assert session.state.pot == 80  # nobody took it
    assert GAME_ENDED not in types(events)  # the round goes on
    assert one(start(session), ANTES_POSTED).data["exempt"] == ["c", "b"]  # D-MC-01


def test_mca_05_a_lone_in_must_beat_the_open_hand_too() -> None:
    session = game(open_deck("Ts 6d 3c"), open_hand="face_up")  # ten high
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="in", a="out")  # d: queen high
    assert one(events, SHOWDOWN_HELD).data["reason"] == "contested"  # shown, unlike MC-11
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:d", 40)]
    assert one(events, GAME_ENDED).data["reason"] == "won"  # nobody replenishes
    session = game(open_deck("Ts 6d 3c"), open_hand="face_up")
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="out", a="in")  # a: five high
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:a", "pot", 40)]
    assert GAME_ENDED not in types(events)


def test_mca_05_the_open_hand_conflicts_with_the_deck_against_a_lone_in() -> None:
    with pytest.raises(DomainError) as caught:
        validate_options("monte_carlo", {"open_hand": "face_up", "lone_in": "vs_deck"})
    assert caught.value.detail == {"option": "open_hand", "conflict": "lone_in"}
    options = validate_options("monte_carlo", {"open_hand": "face_up"})
    assert get_variant("monte_carlo").capacity(options) == 16  # (52 - 3) // 3
    with pytest.raises(DomainError):
        validate_options("monte_carlo", {"open_hand": "always"})  # the ghost's, not MC's


def auction_game(**options: Any) -> Session:
    """MCA-04: the open hand (trips) is dealt face up, last; the auction opens on b's turn."""
    return game(open_deck("7s 7h 7d"), open_hand="auction", **options)


def bid(session: Session, player: str, amount: int | None, deal_no: int = 1) -> list:
    return session.do(Bid(player, deal_no, amount))


def test_mca_04_d_mc_04_bids_go_in_turn_and_the_high_bidder_pays_and_swaps_hands() -> None:
    session = auction_game()
    events = start(session)
    assert one(events, GHOST_DEALT).data["face"] == "up"  # an open hand
    assert one(events, BID_OPENED).data["player"] == "b"  # from the dealer's left
    assert DECLARE_OPENED not in types(events)  # bids come first
    assert table_view(session.state, Viewer("b"), T0)["phase"] == "auction"
    bid(session, "b", 5)
    assert one(bid(session, "c", 10), BID_OPENED).data == {
        "deal_no": 1,
        "player": "d",
        "high_bid": 10,
        "deadline": "2026-11-29T12:00:30.000000Z",
    }
    bid(session, "d", None)
    bid(session, "a", None)
    events = bid(session, "b", None)  # all the others passed
    bought = one(events, OPEN_HAND_BOUGHT).data
    assert (bought["player"], bought["bid"], bought["gave"], bought["received"]) == (
        "c",
        10,
        ["Kh", "Kd", "8c"],
        ["7s", "7h", "7d"],
    )
    assert transfers(of_type(events, OPEN_HAND_BOUGHT)) == [("seat:c", "pot", 10)]
    assert session.state.pot == 50
    assert session.state.live.hand_of("c") == ("7s", "7h", "7d")
    assert session.state.live.ghost == ("Kh", "Kd", "8c")  # face up: public
    assert one(events, BID_OPENED).data["player"] == "b"  # the auction repeats
    for player in "bcd":
        bid(session, player, None)
    events = bid(session, "a", None)  # a full turn, no bid
    assert one(events, DECLARE_OPENED).data["players"] == ["b", "c", "d", "a"]
    events = declare_all(session, 1, b="in", c="in", d="out", a="out")
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["c"]  # the open hand's trips
    assert one(events, SHOWDOWN_HELD).data.get("ghost") is None  # not played against
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 50), ("seat:b", "pot", 50)]
    assert stacks(session) == {"a": 990, "b": 940, "c": 1030, "d": 990}


def test_mca_04_a_full_turn_without_a_bid_ends_the_auction_at_once() -> None:
    session = auction_game()
    start(session)
    for player in "bcd":
        assert DECLARE_OPENED not in types(bid(session, player, None))
    events = bid(session, "a", None)
    assert OPEN_HAND_BOUGHT not in types(events)
    assert one(events, DECLARE_OPENED).data["mode"] == "simultaneous"
    assert session.state.live.hand_of("b") == ("Ah", "Ad", "9c")


def test_mca_04_bid_guards() -> None:
    session = auction_game()
    start(session)
    assert session.fails(Bid("c", 1, 5)) == "not_your_turn"
    assert session.fails(Bid("b", 1, 0)) == "invalid_amount"
    assert session.fails(Bid("b", 1, 991)) == "insufficient_stack"  # D-GEN-06: 990 left
    assert session.fails(Bid("b", 2, 5)) == "wrong_deal"
    assert session.fails(Declare("b", 1, "in")) == "not_your_turn"
    assert [a for a in legal_actions(session.state, "b", T0) if a["action"] == "bid"] == [
        {
            "action": "bid",
            "deal_no": 1,
            "min": 1,
            "max": 990,
            "high_bid": 0,
            "high_bidder": None,
            "deadline": "2026-11-29T12:00:30.000000Z",
            "overdue": False,
        }
    ]
    bid(session, "b", 5)
    assert session.fails(Bid("c", 1, 5)) == "bid_too_low"
    assert table_view(session.state, Viewer(None), T0)["deal"]["auction"] == {
        "high_bid": 5,
        "high_bidder": "b",
    }
    assert session.fails(PassCard("c", 1, "Kh")) == "not_your_turn"


def test_mca_04_d_gen_06_allow_debt_bids_have_no_maximum() -> None:
    session = auction_game(stack_policy="allow_debt")
    start(session)
    bid(session, "b", 5000)
    action = next(a for a in legal_actions(session.state, "c", T0) if a["action"] == "bid")
    assert (action["min"], action["max"]) == (5001, None)


def test_mca_04_a_turn_not_taken_in_time_is_a_pass() -> None:
    session = auction_game()
    start(session)
    assert session.do(ExpireDeclare(1), later(5)) == []  # not yet due
    events = session.do(ExpireDeclare(1), later(31))
    made = one(events, BID_MADE).data
    assert (made["player"], made["amount"], made["timed_out"]) == ("b", None, True)
    assert one(events, BID_OPENED).data["player"] == "c"


def test_mca_04_bids_and_the_swap_are_public() -> None:
    session = auction_game()
    start(session)
    bid(session, "b", 5)
    for player in "cda":
        events = bid(session, player, None)
    for event in (*of_type(session.events, BID_MADE), one(events, OPEN_HAND_BOUGHT)):
        for viewer in (Viewer("c"), Viewer(None)):
            assert redact_event(event.type, event.data, viewer, deal_over=False) == event.data
    ghost = table_view(session.state, Viewer("d"), T0)["deal"]["ghost"]
    assert ghost["cards"] == ["Ah", "Ad", "9c"]  # b's cards, face up


def test_mca_04_the_auction_is_only_played_with_its_option() -> None:
    session = game(open_deck("7s 7h 7d"), open_hand="face_up")
    assert BID_OPENED not in types(start(session))
    session = game()
    assert BID_OPENED not in types(start(session))


def test_mc_options_are_listed_with_their_rule_ids() -> None:
    catalog = get_variant("monte_carlo").to_json()
    rules = {o["name"]: o["rule"] for o in catalog["options"]}
    assert rules["replenish_cap"].startswith("MC-13")
    assert rules["all_out"].startswith("MC-15")
    assert rules["lone_in"] == "MC-11, MCA-02, Q-MC-03"
    assert rules["pot_limit"].startswith("MCA-03")
    assert catalog["game_ends"] == "round_over"
    assert (catalog["new_players_wait"], catalog["min_buy_in_antes"]) == (True, 100)
    assert catalog["defaults"]["cap_rule"] == "pay_limit_only"  # D-CAP
    with pytest.raises(DomainError):
        validate_options("monte_carlo", {"all_out": "wimp_all"})
