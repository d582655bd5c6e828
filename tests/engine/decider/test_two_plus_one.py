"""Two plus One (RULES.md §10): TPO-01..04 and D-TPO-01, given/when/then on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a. The two-card hands are stacked; the
third cards follow in deal order of the players still "in" (`deck`).
"""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import Declare, OpenTable, SitDown
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    CARDS_DEALT,
    DEAL_ENDED,
    DECLARE_OPENED,
    DECLARED,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.view import Viewer, redact_event
from tables.engine.variants import get_variant, validate_options

from .helpers import (
    TABLE,
    Session,
    facts,
    of_type,
    one,
    stack_deck,
    stages_started,
    start,
    table,
    transfers,
    turns,
)

HANDS = ("Ah Kh", "9c 9d", "2s 7d")  # b, c, a (dealer a)


def deck(*thirds: str, hands: tuple[str, ...] = HANDS) -> list[str]:
    """Two cards each, then the third cards in deal order of the "in" players (TPO-02)."""
    return [*stack_deck(*hands), *thirds]


def tpo(*thirds: str, players: str = "abc", **options: object) -> Session:
    options.setdefault("ante", 5)
    return table(players, decks=[deck(*thirds)], variant="two_plus_one", **options)


def test_tpo_01_each_player_receives_two_cards_then_declares() -> None:
    session = tpo()
    events = start(session)
    dealt = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["cards"]) for e in dealt] == [
        ("b", ["Ah", "Kh"]),
        ("c", ["9c", "9d"]),
        ("a", ["2s", "7d"]),
    ]
    assert one(events, DECLARE_OPENED).data["players"] == ["b"]
    assert session.state.live.stage == 1


def test_tpo_02_only_the_in_players_receive_a_third_card() -> None:
    session = tpo("Qh", "9s")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert stages_started(session, events) == [{"deal_no": 1, "stage": 2, "name": "plus one"}]
    third = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["cards"]) for e in third] == [
        ("b", ["Ah", "Kh", "Qh"]),
        ("c", ["9c", "9d", "9s"]),
    ]
    assert session.state.deal.hand_of("a") == ("2s", "7d")
    assert not of_type(events, ANTES_POSTED)  # TPO-04 is an option, off by default


@pytest.mark.parametrize(
    ("ranking", "winner", "loser"),
    [
        ("guts3_sf_high", "b", "c"),  # D-3C-01: A-K-Q of hearts beats three nines
        ("guts3_trips_high", "c", "b"),
        ("guts3_classic", "c", "b"),  # no straights or flushes: three nines beat ace high
    ],
)
def test_tpo_03_hands_rank_as_in_three_card_guts(ranking: str, winner: str, loser: str) -> None:
    session = tpo("Qh", "9s", ranking=ranking)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert (showdown["winners"], showdown["losers"]) == ([winner], [loser])
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", f"seat:{winner}", 15),
        (f"seat:{loser}", "pot", 15),
    ]  # G2-13


def test_d_tpo_01_the_third_card_is_dealt_face_down() -> None:
    session = tpo("Qh", "9s")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    third = of_type(events, CARDS_DEALT)[0]
    assert third.data["face"] == "down"
    seen_by_a = redact_event(third.type, third.data, Viewer("a"), deal_over=False)
    assert seen_by_a["cards"] is None
    assert redact_event(third.type, third.data, Viewer("b"), deal_over=False)["cards"] == ["Ah", "Kh", "Qh"]
    assert session.state.deal.up == ((), (), ())


def test_d_tpo_01_a_lone_in_after_the_first_declare_wins_without_a_third_card() -> None:  # G2-11
    session = tpo("Qh")
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    assert facts(events) == [DECLARED, DECLARED, DECLARED, POT_SETTLED, DEAL_ENDED, GAME_ENDED]
    assert turns(events) == [["c"], ["a"]]
    assert not of_type(events, CARDS_DEALT)
    assert stages_started(session, events) == []
    settled = one(events, POT_SETTLED).data
    assert settled["outcome"] == "uncontested"
    assert transfers([one(events, POT_SETTLED)]) == [("pot", "seat:c", 15)]
    assert session.state.deal.hand_of("c") == ("9c", "9d")
    assert session.stack("c") == 1010


def test_d_tpo_01_the_dealer_is_forced_in_under_sequential_declare() -> None:  # G2-10, D-G2-05
    session = tpo()
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"))
    assert of_type(events, DECLARED)[-1].data["forced"] is True
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:a", 15)]


def test_d_tpo_01_the_declare_mode_is_the_tables() -> None:  # SIM-01
    session = tpo("Qh", "9s", declare_mode="simultaneous")
    opened = one(start(session), DECLARE_OPENED).data
    assert (opened["mode"], opened["players"]) == ("simultaneous", ["b", "c", "a"])
    events = session.declare(1, ("a", "out"), ("c", "in"), ("b", "in"))
    assert all(e.data["sealed"] for e in of_type(events, DECLARED))
    assert len(of_type(events, CARDS_DEALT)) == 2


def test_tpo_04_is_an_option_off_by_default() -> None:
    assert validate_options("two_plus_one", {})["extra_ante_redeclare"] is False
    assert validate_options("two_plus_one", {"extra_ante_redeclare": True})["extra_ante_redeclare"]


def test_tpo_04_the_in_players_ante_again_into_the_pot_then_declare_again() -> None:  # D-TPO-01
    session = tpo("Qh", "9s", extra_ante_redeclare=True)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    extra = one(events, ANTES_POSTED)
    assert extra.data["paid"] == ["b", "c"]
    assert [t["reason"] for t in extra.data["transfers"]] == ["extra_ante", "extra_ante"]
    assert transfers([extra]) == [("seat:b", "pot", 5), ("seat:c", "pot", 5)]
    assert session.state.pot == 25
    assert len(of_type(events, CARDS_DEALT)) == 2
    assert of_type(events, DECLARE_OPENED)[-1].data["players"] == ["b"]  # only the "in" players
    assert session.state.live.stage == 2


def test_tpo_04_going_out_after_the_third_card_loses_only_the_extra_ante() -> None:
    session = tpo("Qh", "9s", extra_ante_redeclare=True)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    events = session.declare(1, ("b", "in"), ("c", "out"))
    settled = one(events, POT_SETTLED).data
    assert (settled["outcome"], settled["matchers"]) == ("uncontested", [])
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 25)]
    assert session.stack("c") == 990  # the ante and the extra ante only
    assert session.stack("b") == 1015


def test_tpo_04_an_in_player_who_loses_the_redeclare_matches_the_grown_pot() -> None:
    session = tpo("Qh", "9s", extra_ante_redeclare=True)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    events = session.declare(1, ("b", "in"), ("c", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 25), ("seat:c", "pot", 25)]
    assert session.state.pot == 25


def test_tpo_04_everyone_out_at_the_redeclare_carries_the_pot() -> None:  # AO-01
    session = tpo("Qh", "9s", extra_ante_redeclare=True)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    events = session.declare(1, ("b", "out"), ("c", "out"))
    assert one(events, POT_SETTLED).data["outcome"] == "all_out_carry"
    assert not transfers(events)
    assert session.state.pot == 25
    assert not of_type(events, GAME_ENDED)


def test_tpo_04_a_player_out_at_the_first_declare_stays_out() -> None:
    session = tpo("Qh", "9s", extra_ante_redeclare=True)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert session.fails(Declare("a", 1, "in")) == "already_declared"


def test_tpo_04_the_redeclare_belongs_to_stage_two() -> None:  # wrong_stage
    session = tpo("Qh", "9s", extra_ante_redeclare=True)
    start(session)
    assert session.fails(Declare("b", 1, "in", stage=2)) == "wrong_stage"
    session.do(Declare("b", 1, "in", stage=1))
    session.declare(1, ("c", "in"), ("a", "out"))
    assert session.fails(Declare("b", 1, "in", stage=1)) == "wrong_stage"
    assert session.do(Declare("b", 1, "in", stage=2))


def test_tpo_04_a_lone_in_after_the_first_declare_pays_no_extra_ante() -> None:  # D-TPO-01
    session = tpo(extra_ante_redeclare=True)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert not of_type(events, ANTES_POSTED)
    assert transfers(events) == [("pot", "seat:b", 15)]


def test_d_gen_02_two_plus_one_seats_at_most_what_one_pack_serves() -> None:
    assert get_variant("two_plus_one").max_seats == 17  # 3 cards each
    assert validate_options("two_plus_one", {"seats": 17})["seats"] == 17
    with pytest.raises(DomainError) as caught:
        validate_options("two_plus_one", {"seats": 18})
    assert (caught.value.code, caught.value.detail["option"]) == ("invalid_option", "seats")


def short_table(policy: str, **options: object) -> Session:
    """b and a hold 100 chips, c only 6: after the ante of 5 he has 1 left."""
    session = Session()
    session.do(
        OpenTable(
            TABLE,
            "two_plus_one",
            {"ante": 5, "min_buy_in": 5, "extra_ante_redeclare": True, "stack_policy": policy, **options},
            stacked_decks=[deck("Qh", "9s")],
            stacked_allowed=True,
        )
    )
    for player, buy_in in (("a", 100), ("b", 100), ("c", 6)):
        session.do(SitDown(player, buy_in))
    start(session)
    return session


def test_d_gen_06_tpo_04_declaring_in_must_cover_the_extra_ante() -> None:
    session = short_table("default", max_loss=1)  # matching costs at most 1 chip
    session.declare(1, ("b", "in"))
    assert session.fails(Declare("c", 1, "in")) == "insufficient_stack"
    with pytest.raises(DomainError) as caught:
        session.do(Declare("c", 1, "in"))
    assert caught.value.detail == {"needed": 6, "stack": 1}  # max loss 1 + the extra ante 5


def test_d_gen_06_tpo_04_a_short_player_pays_what_he_has_of_the_extra_ante() -> None:
    session = short_table("pay_what_you_have")
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert transfers([one(events, ANTES_POSTED)]) == [("seat:b", "pot", 5), ("seat:c", "pot", 1)]
    assert session.stack("c") == 0
    assert session.state.pot == 21
