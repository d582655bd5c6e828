"""Jacks and Piss (RULES.md §13: JP-01..15, EX-04, EX-05, D-BET, D-GEN-02, Q-CZV-01), given/when/then
on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a; four cards each, then the piss card face
up on the board, then the stock (`deck`). Ante 10: the pot before the betting is 30.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import Bet, Declare, Exchange, ExpireDeclare, StartDeal
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    BET_TURN_OPENED,
    BETS_AWARDED,
    BOARD_DEALT,
    CARDS_DEALT,
    CARDS_DRAWN,
    DECLARE_OPENED,
    EXCHANGE_OPENED,
    GAME_ENDED,
    GHOST_DEALT,
    POT_SETTLED,
    SHOWDOWN_HELD,
    STOCK_RESHUFFLED,
)
from tables.engine.decider.snapshot import state_to_json
from tables.engine.decider.view import Viewer, legal_actions, phase, redact_event, table_view
from tables.engine.decider.visibility import secret_keys
from tables.engine.variants import get_variant, validate_options

from .helpers import (
    T0,
    Ledger,
    Session,
    assert_folds_back,
    data_of,
    facts,
    later,
    of_type,
    one,
    stack_deck,
    start,
    table,
    transfers,
    turns,
)

ANTE = 10
# EX-05: b holds A♣ 8♠ 3♥ J♥ and the piss card is 8♣
HANDS = ("Ac 8s 3h Jh", "Kc Kd 2c 5d", "Qs Qh 9d 4c")  # b, c, a (dealer a)
STOCK = ("7s", "7d", "6s", "6d", "5s", "5h", "4h", "4s")


def deck(piss: str = "8c", hands: tuple[str, ...] = HANDS, stock: tuple[str, ...] = STOCK) -> list[str]:
    return [*stack_deck(*hands), piss, *stock]


def jp(piss: str = "8c", hands: tuple[str, ...] = HANDS, players: str = "abc", **options: object) -> Session:
    options.setdefault("ante", ANTE)
    return table(players, decks=[deck(piss, hands)], variant="jacks_and_piss", **options)


def all_in(session: Session) -> list:
    start(session)
    return session.declare(1, *((p, "in") for p in session.state.live.order))


def stand_pat(session: Session, *players: str) -> list:
    out: list = []
    for player in players:
        out += session.do(Exchange(player, 1, []))
    return out


def check_round(session: Session, *players: str) -> list:
    out: list = []
    for player in players:
        out += session.do(Bet(player, 1, "check"))
    return out


def test_jp_01_four_cards_each_then_the_piss_card_face_up() -> None:
    session = jp()
    events = start(session)
    dealt = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["cards"]) for e in dealt] == [
        ("b", ["Ac", "8s", "3h", "Jh"]),
        ("c", ["Kc", "Kd", "2c", "5d"]),
        ("a", ["Qs", "Qh", "9d", "4c"]),
    ]
    assert data_of(one(events, BOARD_DEALT)) == {"deal_no": 1, "cards": ["8c"]}
    assert facts(events).index(BOARD_DEALT) < facts(events).index(DECLARE_OPENED)  # JP-06: seen first


def test_jp_01_the_piss_card_is_public_the_hole_cards_are_not() -> None:
    session = jp()
    events = start(session)
    board = one(events, BOARD_DEALT)
    assert secret_keys(board.type, board.data) == ()
    view = table_view(session.state, Viewer("c"), T0)
    assert view["deal"]["board"] == ["8c"]
    cards = {p["player"]: p["cards"] for p in view["deal"]["players"]}
    assert cards == {"b": None, "c": ["Kc", "Kd", "2c", "5d"], "a": None}


def test_jp_03_jp_04_jp_05_ex_05_jacks_the_piss_card_and_its_rank_are_wild() -> None:
    session = jp()
    all_in(session)
    stand_pat(session, "b", "c", "a")
    events = check_round(session, "b", "c", "a")
    hands = {h["player"]: h for h in one(events, SHOWDOWN_HELD).data["hands"]}
    # EX-05: A-8-3-J + 8: the 8♠, the J♥ and the piss card 8♣ are wild: four aces, the 3♥ fifth
    assert hands["b"]["value"] == "Four aces, three kicker"
    assert hands["b"]["category"] == "four_of_a_kind"
    assert hands["c"]["category"] == "three_of_a_kind"  # K K + the piss card
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["b"]


def test_ex_04_every_card_of_the_piss_cards_rank_is_wild() -> None:
    # the piss card is a three: b's 3♠ and 3♥ are wild (JP-05), with the J♥ (JP-03) and the piss
    # card itself (JP-03): the ace and four wild cards are five aces (D-GEN-03)
    hands = ("Ac 3s 3h Jh", "Kc Kd 2c 5d", "Qs Qh 9d 4c")
    session = jp("3d", hands)
    all_in(session)
    stand_pat(session, "b", "c", "a")
    events = check_round(session, "b", "c", "a")
    b = next(h for h in one(events, SHOWDOWN_HELD).data["hands"] if h["player"] == "b")
    assert b["category"] == "five_of_a_kind"  # A + 3♠ 3♥ J♥ 3♦, D-GEN-03


def test_jp_07_the_declare_goes_in_the_classic_order() -> None:
    session = jp()
    start(session)
    assert one(session.events, DECLARE_OPENED).data["players"] == ["b"]
    assert turns(session.declare(1, ("b", "in"))) == [["c"]]


def test_jp_08_jp_09_only_the_in_players_draw_in_turn() -> None:
    session = jp()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "in"))
    assert one(events, EXCHANGE_OPENED).data["player"] == "b"
    assert session.fails(Exchange("c", 1, [])) == "not_your_turn"
    session.do(Exchange("b", 1, []))
    assert session.state.live.awaiting == ("a",)  # c is out: skipped
    events = session.do(Exchange("a", 1, ["9d", "4c"]))
    assert one(events, CARDS_DRAWN).data["drawn"] == ["7s", "7d"]
    assert one(events, BET_TURN_OPENED).data["player"] == "b"  # JP-10: betting follows


def test_jp_09_the_number_of_cards_exchanged_is_unlimited() -> None:
    session = jp()
    all_in(session)
    action = next(a for a in legal_actions(session.state, "b", T0) if a["action"] == "exchange")
    assert action["max"] == 4
    events = session.do(Exchange("b", 1, ["Ac", "8s", "3h", "Jh"]))
    assert one(events, CARDS_DRAWN).data["cards"] == ["7s", "7d", "6s", "6d"]


def test_jp_14_the_dealer_may_limit_the_exchange() -> None:
    session = jp(draw_max=2)
    all_in(session)
    assert session.fails(Exchange("b", 1, ["Ac", "8s", "3h"])) == "invalid_discards"
    assert one(session.do(Exchange("b", 1, ["Ac", "8s"])), CARDS_DRAWN).data["count"] == 2


def test_d_gen_02_the_stock_running_out_reshuffles_the_earlier_discards() -> None:
    """Eleven players hold 44 cards, the piss card is the 45th: a stock of 7. b replaces four, c
    four: the stock serves three, then b's discards (not live cards, not c's own) are reshuffled."""
    players = "abcdefghijk"
    session = table(players, variant="jacks_and_piss", ante=1, seats=11)
    session.do(StartDeal(None, "cd" * 32))
    session.declare(1, *((p, "in") for p in session.state.live.order))
    first, second = session.state.live.order[:2]
    b_discards = list(session.state.live.hand_of(first))
    session.do(Exchange(first, 1, b_discards))
    events = session.do(Exchange(second, 1, list(session.state.live.hand_of(second))))
    reshuffled = one(events, STOCK_RESHUFFLED).data
    assert sorted(reshuffled["cards"]) == sorted(b_discards)
    assert len(one(events, CARDS_DRAWN).data["drawn"]) == 4
    held = [card for hand in session.state.live.hands for card in hand]
    assert len(set(held)) == 44
    assert session.state.live.board[0] not in held


def test_jp_10_a_betting_round_follows_the_draw_and_jp_12_the_pot_is_matched_before_it() -> None:
    session = jp()
    all_in(session)
    stand_pat(session, "b", "c", "a")
    events = session.do(Bet("b", 1, "bet")) + session.do(Bet("c", 1, "raise"))
    events += session.do(Bet("a", 1, "fold")) + session.do(Bet("b", 1, "call"))
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["b"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 30),
        ("seat:a", "pot", 30),
    ]  # JP-11, JP-12, D-BET
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "seat:b", 40)]
    assert session.state.pot == 60


def test_jp_11_the_in_players_show_and_the_others_match() -> None:
    session = jp()
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    stand_pat(session, "b", "c")
    events = check_round(session, "b", "c")
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["player"] for h in showdown["hands"]] == ["b", "c"]
    assert showdown["losers"] == ["c"]
    assert session.stack("a") == 1000 - ANTE


def test_jp_13_the_game_ends_when_only_one_player_declares_in() -> None:
    session = jp(dealer_forced_in=False)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    assert not of_type(events, EXCHANGE_OPENED)
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 30)]
    assert one(events, GAME_ENDED).data["reason"] == "uncontested"


def test_jp_13_play_goes_on_while_two_or_more_are_in() -> None:
    session = jp()
    all_in(session)
    stand_pat(session, "b", "c", "a")
    events = check_round(session, "b", "c", "a")
    assert not of_type(events, GAME_ENDED)
    assert session.state.pot == 60


def test_jp_15_q_czv_01_the_kitty_is_the_ghost_hand() -> None:  # JP-15
    """The Kitty (Q-CZV-01: the GH rules): a fifth hand dealt last, the piss card its fifth card,
    that the "in" players must beat; it takes no part in the draw or the betting."""
    hands = ("Ac 8s 3h Jh", "Kc Kd 2c 5d", "Qs Qh 9d 4c", "Js Jd Jc 2h")  # the kitty: four jacks
    session = jp(hands=hands, ghost="always")
    events = start(session)
    assert one(events, GHOST_DEALT).data["cards"] == ["Js", "Jd", "Jc", "2h"]
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    stand_pat(session, "b", "c")
    events = check_round(session, "b", "c")
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["ghost"]["category"] == "five_of_a_kind"  # J J J + 8 wild + J wild
    assert showdown["winners"] == []
    assert one(events, POT_SETTLED).data["outcome"] == "ghost_won"  # GH-05: both match
    assert session.state.pot == 90


def test_jp_15_kitty_bets_go_to_the_pot_when_nobody_beats_it() -> None:  # JP-15
    hands = ("Ac 8s 3h Jh", "Kc Kd 2c 5d", "Qs Qh 9d 4c", "Js Jd Jc 2h")
    session = jp(hands=hands, ghost="always")
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    stand_pat(session, "b", "c")
    events = session.do(Bet("b", 1, "bet")) + session.do(Bet("c", 1, "call"))
    assert transfers(of_type(events, BETS_AWARDED)) == [("bets", "pot", 20)]
    assert session.state.pot == 30 + 30 + 30 + 20
    assert session.state.bets == 0


def test_jp_variant_is_data() -> None:
    variant = get_variant("jacks_and_piss")
    assert [s.kind for s in variant.program] == [
        "ante",
        "deal",
        "deal",
        "declare",
        "lone_in",
        "exchange",
        "betting",
        "showdown",
        "settle",
        "award_bets",
    ]
    assert variant.max_seats == 11  # D-GEN-02
    assert variant.capacity(validate_options("jacks_and_piss", {"ghost": "always"})) == 10
    assert variant.game_ends == "lone_in_wins"
    with pytest.raises(DomainError) as error:
        validate_options("jacks_and_piss", {"draw_max": 5})
    assert error.value.detail["option"] == "draw_max"


def test_jp_draws_are_secret_the_count_is_public() -> None:
    session = jp()
    all_in(session)
    drawn = one(session.do(Exchange("b", 1, ["3h"])), CARDS_DRAWN)
    seen = redact_event(drawn.type, drawn.data, Viewer("c"), deal_over=False)
    assert (seen["count"], seen["drawn"], seen["discarded"], seen["cards"]) == (1, None, None, None)
    assert redact_event(drawn.type, drawn.data, Viewer("b"), deal_over=False)["drawn"] == ["7s"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 11), ghost=st.sampled_from(["none", "always"]))
def test_jp_property_random_deals_conserve_chips_and_cards(
    data: st.DataObject, players: int, ghost: str
) -> None:
    """Random declares, draws, bets and timeouts over two deals: every event is double entry, the
    state agrees with an independent ledger, the bets account is empty between deals, no card is
    held twice, and the events (and snapshots) fold back to the state."""
    players = min(players, 10 if ghost == "always" else 11)
    session = table(
        "abcdefghijk"[:players], variant="jacks_and_piss", ante=2, seats=players, ghost=ghost, buy_in=200
    )
    snapshots: list = []
    clock = 0
    for _ in range(2):
        if session.state.live is None:
            session.do(StartDeal(None, data.draw(st.binary(min_size=8, max_size=8)).hex()), later(clock))
        while (deal := session.state.live) is not None:
            clock += 100
            player = deal.awaiting[0]
            if data.draw(st.integers(0, 9)) == 0:
                session.do(ExpireDeclare(deal.deal_no), later(clock + 3600))
                clock += 3600
                continue
            action = next(
                a
                for a in legal_actions(session.state, player, later(clock))
                if a["action"] in ("declare", "exchange", "bet")
            )
            if action["action"] == "declare":
                session.do(
                    Declare(player, deal.deal_no, data.draw(st.sampled_from(action["choices"]))), later(clock)
                )
            elif action["action"] == "exchange":
                discards = data.draw(st.lists(st.sampled_from(action["choices"]), unique=True, max_size=4))
                session.do(Exchange(player, deal.deal_no, discards), later(clock))
            else:
                session.do(
                    Bet(player, deal.deal_no, data.draw(st.sampled_from(action["choices"]))), later(clock)
                )
            if session.state.live is not None:
                held = [c for hand in session.state.live.hands for c in hand]
                assert len(set(held)) == len(held)
            snapshots.append((len(session.events), state_to_json(session.state)))
        assert session.state.bets == 0
        assert phase(session.state) == "between_deals"
    ledger = Ledger()
    for event in session.events:
        ledger.post(event)
    for seat in session.state.seats:
        assert ledger.balances[f"seat:t1:{seat.player}"] == seat.stack >= 0
    assert ledger.balances["pot:t1"] == session.state.pot
    assert ledger.balances.get("bets:t1", 0) == 0
    assert_folds_back(session, snapshots[-3:])
