"""The betting step kind (D-BET, Q-JP-01, Q-T25-01), given/when/then on Three to Five.

Players "abc": the first dealer is a, so action goes b, c, a. Ante 10, so the bet unit is 10
unless `bet_unit` says otherwise; the pot before the betting is 30.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import Bet, ExpireDeclare
from tables.engine.decider.events import BET_MADE, BET_TURN_OPENED, BETS_AWARDED, POT_SETTLED, SHOWDOWN_HELD
from tables.engine.decider.snapshot import state_to_json
from tables.engine.decider.steps.betting import betting_of
from tables.engine.decider.view import Viewer, legal_actions, redact_event, table_view
from tables.engine.decider.visibility import secret_keys

from .helpers import (
    T0,
    Ledger,
    Session,
    assert_folds_back,
    later,
    of_type,
    one,
    stack_deck,
    start,
    table,
    transfers,
)

# b: a flush, c: four aces, a: a pair of deuces (dealt b, c, a)
HANDS = ("5h 6h 7h 8h Jh", "Ac Ad Ah As Kc", "2c 2d 3s 4d 7c")


def betting(players: str = "abc", hands: tuple[str, ...] = HANDS, **options: object) -> Session:
    """Given: a Three to Five deal in which everyone declared "in" and the betting has begun."""
    options.setdefault("ante", 10)
    session = table(players, decks=[stack_deck(*hands)], variant="three_to_five", **options)
    start(session)
    order = session.state.live.order
    session.declare(1, *((p, "in") for p in order))
    return session


def bet(session: Session, *actions: tuple[str, str]) -> list:
    out: list = []
    for player, action in actions:
        out += session.do(Bet(player, 1, action))
    return out


def bet_action(session: Session, player: str) -> dict:
    return next(a for a in legal_actions(session.state, player, T0) if a["action"] == "bet")


def test_d_bet_action_starts_at_the_dealers_left_and_goes_clockwise() -> None:
    session = betting()
    assert session.state.live.awaiting == ("b",)
    opened = one(session.events, BET_TURN_OPENED).data
    assert (opened["player"], opened["to_call"], opened["unit"], opened["raises"]) == ("b", 0, 10, 0)
    bet(session, ("b", "check"))
    assert session.state.live.awaiting == ("c",)
    bet(session, ("c", "check"))
    assert session.state.live.awaiting == ("a",)


def test_d_bet_with_no_bet_open_a_player_checks_bets_or_folds() -> None:
    session = betting()
    action = bet_action(session, "b")
    assert action["choices"] == ["check", "bet", "fold"]
    assert action["amounts"] == {"check": 0, "bet": 10, "fold": 0}
    assert (action["to_call"], action["unit"], action["raises_left"]) == (0, 10, 3)
    assert session.fails(Bet("b", 1, "call")) == "bet_not_allowed"
    assert session.fails(Bet("b", 1, "raise")) == "bet_not_allowed"


def test_d_bet_facing_a_bet_a_player_calls_raises_or_folds() -> None:
    session = betting()
    events = bet(session, ("b", "bet"))
    assert transfers(of_type(events, BET_MADE)) == [("seat:b", "bets", 10)]
    action = bet_action(session, "c")
    assert action["choices"] == ["call", "raise", "fold"]
    assert action["amounts"] == {"call": 10, "raise": 20, "fold": 0}
    assert session.fails(Bet("c", 1, "check")) == "bet_not_allowed"
    assert session.fails(Bet("c", 1, "bet")) == "bet_not_allowed"  # a bet is open


def test_d_bet_bet_and_raise_sizes_are_the_bet_unit() -> None:
    session = betting(bet_unit=25)
    events = bet(session, ("b", "bet"), ("c", "raise"), ("a", "call"))
    assert transfers(of_type(events, BET_MADE)) == [
        ("seat:b", "bets", 25),
        ("seat:c", "bets", 50),
        ("seat:a", "bets", 50),
    ]
    assert session.state.bets == 125
    assert session.state.pot == 30  # JP-12: apart from the pot


def test_d_bet_at_most_three_raises_per_round() -> None:
    session = betting()
    bet(session, ("b", "bet"), ("c", "raise"), ("a", "raise"), ("b", "raise"))
    assert betting_of(session.state.live).raises == 3
    assert session.fails(Bet("c", 1, "raise")) == "raise_limit"
    action = bet_action(session, "c")
    assert action["choices"] == ["call", "fold"]
    assert action["raises_left"] == 0
    assert action["amounts"]["call"] == 20


def test_d_bet_the_round_ends_when_everyone_has_matched() -> None:
    session = betting()
    events = bet(session, ("b", "bet"), ("c", "raise"), ("a", "call"))
    assert session.state.live.awaiting == ("b",)  # b owes 10 more
    events = bet(session, ("b", "call"))
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["c"]  # four aces
    assert session.state.live is None


def test_d_bet_everyone_checks_and_the_showdown_follows() -> None:
    session = betting()
    events = bet(session, ("b", "check"), ("c", "check"), ("a", "check"))
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["c"]
    assert not of_type(events, BETS_AWARDED)  # no bets, no event
    assert session.state.bets == 0


def test_d_bet_the_bets_go_to_the_winner_and_the_pot_is_matched_at_its_pre_betting_size() -> None:
    session = betting()
    events = bet(session, ("b", "bet"), ("c", "raise"), ("a", "call"), ("b", "call"))
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:c", 30),
        ("seat:b", "pot", 30),
        ("seat:a", "pot", 30),
    ]  # JP-12, T25-04
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "seat:c", 60)]
    assert session.state.pot == 60
    assert session.state.bets == 0
    assert [session.stack(p) for p in "abc"] == [
        1000 - 10 - 20 - 30,
        1000 - 10 - 20 - 30,
        1000 - 10 - 20 + 30 + 60,
    ]


def test_d_bet_a_folder_forfeits_his_bets_and_still_matches_the_pre_betting_pot() -> None:
    session = betting()
    events = bet(session, ("b", "bet"), ("c", "raise"), ("a", "fold"), ("b", "fold"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert (showdown["reason"], showdown["winners"], showdown["hands"]) == ("uncontested", ["c"], [])
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:c", 30),
        ("seat:b", "pot", 30),
        ("seat:a", "pot", 30),
    ]
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "seat:c", 30)]
    assert session.state.deal.folded == ("a", "b")
    assert session.stack("b") == 1000 - 10 - 10 - 30  # forfeits 10, matches 30


def test_d_bet_folders_are_not_shown_and_lose_to_the_players_left() -> None:
    session = betting()
    events = bet(session, ("b", "fold"), ("c", "check"), ("a", "check"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["player"] for h in showdown["hands"]] == ["c", "a"]  # b's flush unseen
    assert showdown["winners"] == ["c"]
    assert sorted(one(events, POT_SETTLED).data["matchers"]) == ["a", "b"]
    view = table_view(session.state, Viewer("a"), T0)
    b = next(p for p in view["deal"]["players"] if p["player"] == "b")
    assert b["cards"] is None
    assert b["folded"] is True


def test_d_bet_split_bets_place_the_odd_chip_at_the_dealers_left() -> None:  # D-GEN-01
    hands = ("Ac Ad Kh Ks 2c", "As Ah Kc Kd 2d", "3c 4d 7s 8h Js")
    session = betting(hands=hands, bet_unit=5)
    events = bet(session, ("b", "bet"), ("c", "call"), ("a", "call"))
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["b", "c"]
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "seat:b", 8), ("bets", "seat:c", 7)]


def test_d_bet_a_timed_out_player_checks_if_he_can() -> None:
    session = betting(declare_timeout=20)
    assert session.do(ExpireDeclare(1), later(5)) == []  # not overdue yet
    events = session.do(ExpireDeclare(1), later(21))
    made = one(events, BET_MADE).data
    assert (made["player"], made["action"], made["timed_out"]) == ("b", "check", True)
    assert session.state.live.awaiting == ("c",)


def test_d_bet_a_timed_out_player_facing_a_bet_folds() -> None:
    session = betting(declare_timeout=20)
    bet(session, ("b", "bet"))
    deadline = session.state.live.deadline
    events = session.do(ExpireDeclare(1), later(45))
    made = one(events, BET_MADE).data
    assert (made["player"], made["action"], made["amount"]) == ("c", "fold", 0)
    assert deadline is not None
    assert session.state.live.awaiting == ("a",)
    assert session.state.seat_of("c").timeouts == 0  # like draws: not counted


def test_d_bet_out_of_turn_and_outside_the_round_are_refused() -> None:
    session = betting()
    assert session.fails(Bet("c", 1, "check")) == "not_your_turn"
    assert session.fails(Bet("z", 1, "check")) == "not_seated"
    assert session.fails(Bet("b", 2, "check")) == "wrong_deal"
    assert session.fails(Bet("b", 1, "shove")) == "invalid_choice"
    assert session.fails(Bet("b", 1, "bet", 15)) == "invalid_amount"  # fixed limit: 10
    bet(session, ("b", "bet"))
    assert session.fails(Bet("b", 1, "call")) == "not_your_turn"


def test_d_bet_no_betting_before_the_round() -> None:
    session = table("abc", decks=[stack_deck(*HANDS)], variant="three_to_five", ante=10)
    start(session)
    assert session.fails(Bet("b", 1, "check")) == "not_your_turn"
    assert not [a for a in legal_actions(session.state, "b", T0) if a["action"] == "bet"]


def test_d_bet_the_amount_given_must_be_what_the_action_moves() -> None:
    session = betting()
    bet(session, ("b", "bet"))
    assert session.fails(Bet("c", 1, "raise", 10)) == "invalid_amount"
    session.do(Bet("c", 1, "raise", 20))
    assert session.state.bets == 30


@pytest.mark.parametrize(
    ("stack", "choices"),
    [
        (1000, ["call", "raise", "fold"]),
        (10 + 30 + 20, ["call", "fold"]),  # ante 10, liable for the pot of 30; 20 free: call only
        (10 + 30 + 10, ["fold"]),  # 10 free: cannot call 20
    ],
)
def test_d_gen_06_bets_are_limited_to_the_stack_beyond_the_pot_match(stack: int, choices: list[str]) -> None:
    session = _table_with_stacks({"a": stack, "b": 1000, "c": 1000})
    bet(session, ("b", "bet"), ("c", "raise"))
    assert bet_action(session, "a")["choices"] == choices
    if "call" not in choices:
        assert session.fails(Bet("a", 1, "call")) == "insufficient_stack"


def _table_with_stacks(stacks: dict[str, int]) -> Session:
    from tables.engine.decider.commands import OpenTable, SitDown

    session = Session()
    session.do(
        OpenTable(
            "t1",
            "three_to_five",
            {"ante": 10, "min_buy_in": 10},
            stacked_decks=[stack_deck(*HANDS)],
            stacked_allowed=True,
        )
    )
    for player, amount in stacks.items():
        session.do(SitDown(player, amount))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    return session


def test_d_gen_06_allow_debt_bets_without_limit_and_pay_what_you_have_up_to_the_stack() -> None:
    session = betting(stack_policy="allow_debt")
    assert set(bet_action(session, "b")["choices"]) == {"check", "bet", "fold"}
    session = betting(stack_policy="pay_what_you_have")
    assert "bet" in bet_action(session, "b")["choices"]


def test_d_bet_bets_are_public_events() -> None:
    session = betting()
    bet(session, ("b", "bet"), ("c", "raise"))
    for event in of_type(session.events, BET_MADE) + of_type(session.events, BET_TURN_OPENED):
        assert secret_keys(event.type, event.data) == ()
        assert redact_event(event.type, event.data, Viewer("a"), deal_over=False) == event.data
    view = table_view(session.state, Viewer(None), T0)
    assert view["bets"] == 30
    assert view["deal"]["betting"] == {
        "total": 30,
        "stakes": {"b": 10, "c": 20, "a": 0},
        "bets": {"b": 10, "c": 20, "a": 0},
        "high": 20,
        "raises": 1,
        "unit": 10,
        "folded": [],
        "open": True,
    }
    assert view["phase"] == "betting"


def test_d_bet_snapshots_carry_the_bets() -> None:
    session = betting()
    bet(session, ("b", "bet"))
    snapshot = (len(session.events), state_to_json(session.state))
    bet(session, ("c", "raise"), ("a", "fold"))
    assert_folds_back(session, [snapshot])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(min_value=0, max_value=4), min_size=0, max_size=14),
    st.sampled_from(["default", "allow_debt", "pay_what_you_have"]),
    st.integers(min_value=40, max_value=200),
)
def test_d_bet_property_chips_are_conserved_and_the_bets_account_empties(
    picks: list[int], policy: str, buy_in: int
) -> None:
    """Random betting rounds: every event is double entry, the folded state agrees with an
    independent ledger, the bets account is empty once the deal is over, snapshots fold back."""
    session = table(
        "abcd",
        decks=[stack_deck("5h 6h 7h 8h 9h", "Ac Ad Ah As Kc", "2c 2d 3s 4d 7c", "Tc Td Ts 9c 9d")],
        variant="three_to_five",
        ante=5,
        min_buy_in=40,
        buy_in=buy_in,
        stack_policy=policy,
    )
    start(session)
    session.declare(1, *((p, "in") for p in session.state.live.order))
    snapshots = [(len(session.events), state_to_json(session.state))]
    for pick in picks:
        deal = session.state.live
        if deal is None or not deal.awaiting:
            break
        player = deal.awaiting[0]
        action = bet_action(session, player)
        session.do(Bet(player, 1, action["choices"][pick % len(action["choices"])]))
        snapshots.append((len(session.events), state_to_json(session.state)))
    hours = 0
    while session.state.live is not None:  # the rest time out
        hours += 1
        assert hours < 50
        session.do(ExpireDeclare(1), T0 + timedelta(hours=hours))
    ledger = Ledger()
    for event in session.events:
        ledger.post(event)
    for seat in session.state.seats:
        assert ledger.balances[f"seat:t1:{seat.player}"] == seat.stack
        if policy != "allow_debt":
            assert seat.stack >= 0
    assert ledger.balances["pot:t1"] == session.state.pot
    assert ledger.balances.get("bets:t1", 0) == session.state.bets == 0
    assert_folds_back(session, snapshots)


def test_d_bet_at_a_tournament_table_bets_move_the_tournaments_chips() -> None:
    """D-BET at a tournament table: every bet, the match and the bets won are in the tournament's unit, and
    pay_what_you_have (the tournaments' default, D-GEN-06) lets a player bet his whole stack."""
    from tables.engine.decider.commands import OpenTable, SeatEntrant

    session = Session()
    session.do(
        OpenTable(
            "t1",
            "three_to_five",
            {"ante": 10},
            stacked_decks=[stack_deck(*HANDS)],
            stacked_allowed=True,
            tournament_id="tour-1",
        )
    )
    for player, chips in (("a", 1000), ("b", 1000), ("c", 45)):
        session.do(SeatEntrant(player, chips))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    bet(session, ("b", "bet"))
    assert bet_action(session, "c")["choices"] == ["call", "raise", "fold"]  # 35 chips: up to 20
    events = bet(session, ("c", "raise"), ("a", "call"), ("b", "call"))
    units = {t["unit"] for e in session.events for t in e.data.get("transfers", ())}
    assert units == {"t:tour-1"}
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "seat:c", 60)]
    ledger = Ledger()
    for event in session.events:
        ledger.post(event)
    assert ledger.balances.get("bets:t1", 0) == 0
