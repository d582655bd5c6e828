"""Three to Five (RULES.md §13, T25-01..05, Q-T25-01, D-BET), given/when/then on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a. Three cards each first; the two more
cards go to the "in" players in deal order (`deck`). Ante 10: the pot before the betting is 30.
"""

from __future__ import annotations

from tables.engine.decider.commands import Bet
from tables.engine.decider.events import (
    BET_TURN_OPENED,
    BETS_AWARDED,
    CARDS_DEALT,
    DECLARE_OPENED,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.view import Viewer, redact_event
from tables.engine.variants import get_variant, validate_options

from .helpers import Session, of_type, one, stack_deck, start, table, transfers

THREES = ("7h 8h 9h", "Ac Ad 4s", "Kc Qd 2s")  # b, c, a (dealer a)


def deck(*twos: str, threes: tuple[str, ...] = THREES) -> list[str]:
    """Three cards each, then two more to each "in" player, one at a time in deal order (T25-02)."""
    split = [t.split() for t in twos]
    return [*stack_deck(*threes), *(h[r] for r in range(2) for h in split)]


def t25(*twos: str, threes: tuple[str, ...] = THREES, **options: object) -> Session:
    options.setdefault("ante", 10)
    return table("abc", decks=[deck(*twos, threes=threes)], variant="three_to_five", **options)


def test_t25_01_each_player_is_dealt_three_cards_first() -> None:
    session = t25()
    events = start(session)
    assert [(e.data["player"], e.data["cards"]) for e in of_type(events, CARDS_DEALT)] == [
        ("b", ["7h", "8h", "9h"]),
        ("c", ["Ac", "Ad", "4s"]),
        ("a", ["Kc", "Qd", "2s"]),
    ]
    assert one(events, DECLARE_OPENED).data["players"] == ["b"]  # classic declare, G2-08


def test_t25_02_only_the_in_players_receive_the_two_remaining_cards() -> None:
    session = t25("Th Jh", "Ah 4d")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    dealt = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["face"], e.data["cards"]) for e in dealt] == [
        ("b", "down", ["7h", "8h", "9h", "Th", "Jh"]),  # Q-T25-01: face down
        ("c", "down", ["Ac", "Ad", "4s", "Ah", "4d"]),
    ]
    assert session.state.deal.hand_of("a") == ("Kc", "Qd", "2s")


def test_t25_02_the_extra_cards_are_secret_to_the_others() -> None:
    session = t25("Th Jh", "Ah 4d")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    dealt = of_type(events, CARDS_DEALT)[0]
    assert redact_event(dealt.type, dealt.data, Viewer("c"), deal_over=False)["cards"] is None
    assert redact_event(dealt.type, dealt.data, Viewer("b"), deal_over=False)["cards"] == dealt.data["cards"]


def test_t25_03_betting_follows_the_two_cards() -> None:
    session = t25("Th Jh", "Ah 4d")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert [e.type for e in events].index(BET_TURN_OPENED) > [e.type for e in events].index(CARDS_DEALT)
    assert one(events, BET_TURN_OPENED).data["player"] == "b"
    assert session.state.live.awaiting == ("b",)


def test_t25_04_the_best_hand_wins_and_the_others_match_the_pre_betting_pot() -> None:
    session = t25("Th Jh", "Ah 4d")
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    events = session.do(Bet("b", 1, "bet")) + session.do(Bet("c", 1, "raise"))
    events += session.do(Bet("b", 1, "call"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert (showdown["winners"], showdown["losers"]) == (["b"], ["c"])  # straight flush > full house
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30), ("seat:c", "pot", 30)]
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "seat:b", 40)]
    assert session.state.pot == 30  # not 30 + 40
    assert (session.stack("b"), session.stack("c"), session.stack("a")) == (
        1000 - 10 - 20 + 30 + 40,
        1000 - 10 - 20 - 30,
        990,
    )


def test_t25_04_a_player_who_folds_in_the_betting_still_matches() -> None:  # D-BET
    session = t25("Th Jh", "Ah 4d")
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    events = session.do(Bet("b", 1, "bet")) + session.do(Bet("c", 1, "fold"))
    assert one(events, SHOWDOWN_HELD).data["reason"] == "uncontested"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30), ("seat:c", "pot", 30)]
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "seat:b", 10)]
    assert not of_type(events, GAME_ENDED)  # the pot is 30 again


def test_t25_05_hands_rank_by_classic_five_card_poker() -> None:
    session = t25("2h 2d", "Kd Kh", threes=("7h 7d 9s", "Ac 5d 4s", "Kc Qd 2s"))
    start(session)
    session.declare(1, ("b", "in"), ("c", "out"), ("a", "in"))
    events = session.do(Bet("b", 1, "check")) + session.do(Bet("a", 1, "check"))
    showdown = one(events, SHOWDOWN_HELD).data
    values = {h["player"]: h["category"] for h in showdown["hands"]}
    assert values == {"b": "two_pair", "a": "three_of_a_kind"}
    assert showdown["winners"] == ["a"]


def test_t25_03_a_lone_in_takes_the_pot_without_more_cards_or_betting() -> None:  # G2-11
    session = t25()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert not of_type(events, CARDS_DEALT)
    assert not of_type(events, BET_TURN_OPENED)
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30)]
    assert one(events, GAME_ENDED).data["reason"] == "uncontested"  # the pot is empty


def test_t25_03_everyone_out_carries_the_pot() -> None:  # classic Guts, AO-01
    session = t25(dealer_forced_in=False)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert not of_type(events, BET_TURN_OPENED)
    assert session.state.pot == 30
    assert session.state.live is None


def test_t25_variant_is_data_with_a_bet_unit_option() -> None:
    variant = get_variant("three_to_five")
    kinds = [s.kind for s in variant.program]
    assert kinds == [
        "ante",
        "deal",
        "declare",
        "lone_in",
        "deal",
        "betting",
        "showdown",
        "settle",
        "award_bets",
    ]
    assert variant.max_seats == 10  # five cards each, D-GEN-02
    assert validate_options("three_to_five", {})["bet_unit"] == 0  # 0: the ante (D-BET)
