"""Italian poker (RULES §14, IT-01..40, D-IT-01..05), given/when/then on stacked decks.

Players "abcd": the first dealer is a, so cards and action go b, c, d, a; four players play the
32-card pack, 7s to aces (D-IT-01). Ante 10, so the bet unit is 10 (20 in the second round).
"""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import Bet, Exchange, ExpireDeclare, TopUp
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    BET_MADE,
    BET_TURN_OPENED,
    CARDS_DEALT,
    CARDS_DRAWN,
    DEAL_ENDED,
    NOBODY_OPENED,
    OPENERS_SHOWN,
    POTS_AWARDED,
    SHOWDOWN_HELD,
    STOCK_RESHUFFLED,
)
from tables.engine.decider.steps.base import deck_for
from tables.engine.decider.steps.betting import betting_of, openers
from tables.engine.decider.variants import validate_options
from tables.engine.decider.view import Viewer, legal_actions, redact_event, table_view
from tables.engine.decider.visibility import secret_keys
from tables.engine.deck import italian_pack

from .helpers import T0, Ledger, Session, later, of_type, one, stack_deck, start, table, transfers

# Dealt b, c, d, a.  b: a pair of jacks (openers); c: a pair of queens; d: ace high; a: two pair.
HANDS = ("Jh Js 7c 8d 9s", "Qh Qd 7d 8c Tc", "Ah Kd 9h 8h 7h", "As Ad Ks Kh 7s")


def italian(
    players: str = "abcd",
    hands: tuple[str, ...] = HANDS,
    draws: str = "",
    stacks: dict[str, int] | None = None,
    **options: object,
) -> Session:
    """Given: an Italian poker deal dealt from a stacked deck (the hands, then the draw's cards)."""
    options.setdefault("ante", 10)
    deck = [*stack_deck(*hands), *draws.split()]
    session = table(players, decks=[deck], variant="italian", **options)
    for player, extra in (stacks or {}).items():
        session.do(TopUp(player, extra))
    start(session)
    return session


def bet(session: Session, *actions: tuple[str, str] | tuple[str, str, int]) -> list:
    out: list = []
    for player, action, *amount in actions:
        out += session.do(Bet(player, session.state.deal_no, action, amount[0] if amount else None))
    return out


def draw(session: Session, player: str, discards: str = "", *, split: bool = False) -> list:
    return session.do(Exchange(player, session.state.deal_no, discards.split(), split_openers=split))


def offer(session: Session, player: str, action: str) -> dict:
    return next(a for a in legal_actions(session.state, player, T0) if a["action"] == action)


def opened(session: Session) -> Session:
    """b opens, c calls, d folds, a calls: the first round is over, the draw begins."""
    bet(session, ("b", "open"), ("c", "call"), ("d", "fold"), ("a", "call"))
    return session


# --- the deal: IT-03..06, D-IT-01, D-IT-05, EX-10 --------------------------------------------------


@pytest.mark.parametrize(
    ("players", "cards", "lowest"),
    [
        (2, 24, 9),
        (3, 28, 8),
        (4, 32, 7),
        (5, 36, 6),
        (6, 40, 5),
        (7, 44, 4),
        (8, 48, 3),
        (9, 52, 2),
        (10, 52, 2),
    ],
)
def test_d_it_01_ex_10_table_it_a_the_pack_by_number_of_players(
    players: int, cards: int, lowest: int
) -> None:
    names = "abcdefghij"[:players]
    session = table(names, variant="italian", ante=1)
    start(session)
    deal = session.state.live
    pack = deck_for(session.state, deal).pack
    assert len(pack) == cards
    assert min(card.rank for card in pack) == lowest
    dealt = [card for hand in deal.hands for card in hand]
    assert len(dealt) == 5 * players
    assert len(set(dealt)) == len(dealt)
    assert {str(c) for c in italian_pack(players)} >= set(dealt)  # IT-03, IT-04


def test_d_it_05_two_to_ten_players() -> None:
    assert validate_options("italian", {"seats": 10})["seats"] == 10
    with pytest.raises(DomainError) as error:
        validate_options("italian", {"seats": 11})
    assert error.value.code == "invalid_option"
    with pytest.raises(DomainError):
        validate_options("italian", {"seats": 1})


def test_d_it_05_a_deal_starts_only_with_players_holding_the_ante() -> None:
    session = table("abc", variant="italian", ante=10, buy_in=100)
    session.state = session.state._replace(
        seats=tuple(s._replace(stack=5) if s.player == "c" else s for s in session.state.seats)
    )
    start(session)
    assert session.state.live.order == ("b", "a")


def test_it_05_every_player_antes_each_deal() -> None:
    session = italian()
    antes = one(session.events, ANTES_POSTED)
    assert sorted(antes.paid) == ["a", "b", "c", "d"]
    assert antes.ante == 10
    assert session.state.pot == 40


def test_it_06_five_cards_one_at_a_time_from_the_dealers_left() -> None:
    session = italian()
    dealt = of_type(session.events, CARDS_DEALT)
    assert [e.player for e in dealt] == ["b", "c", "d", "a"]
    assert [tuple(e.cards) for e in dealt] == [tuple(h.split()) for h in HANDS]


# --- the first betting round: IT-07..11, D-IT-02 ---------------------------------------------------


def test_it_07_jacks_or_better_opens() -> None:
    session = italian()
    assert offer(session, "b", "bet")["choices"] == ["check", "open"]
    events = bet(session, ("b", "open"))
    made = one(events, BET_MADE)
    assert (made.action, made.amount, made.openers) == ("open", 10, ["Jh", "Js"])
    assert betting_of(session.state.live).opener == "b"


def test_it_08_a_lower_hand_cannot_open_409_cannot_open() -> None:
    session = italian(hands=("Th Ts 7c 8d 9s", *HANDS[1:]))
    assert offer(session, "b", "bet")["choices"] == ["check"]
    assert session.fails(Bet("b", 1, "open")) == "cannot_open"
    assert session.fails(Bet("b", 1, "bet")) == "bet_not_allowed"
    assert session.fails(Bet("b", 1, "fold")) == "bet_not_allowed"  # D-IT-02: only check


def test_it_09_a_qualified_player_may_check() -> None:
    session = italian()
    bet(session, ("b", "check"), ("c", "open"))
    assert betting_of(session.state.live).opener == "c"
    assert session.state.live.awaiting == ("d",)


def test_it_10_after_the_open_anyone_calls_or_raises_without_openers() -> None:
    session = italian()
    bet(session, ("b", "open"), ("c", "call"))
    assert offer(session, "d", "bet")["choices"] == ["call", "raise", "fold"]  # d: ace high
    events = bet(session, ("d", "raise"))
    assert [(e.action, e.amount) for e in of_type(events, BET_MADE)] == [("raise", 20)]


def test_d_it_02_at_most_three_raises_a_round() -> None:
    session = italian()
    bet(session, ("b", "open"), ("c", "raise"), ("d", "raise"), ("a", "raise"))
    assert session.fails(Bet("b", 1, "raise")) == "raise_limit"
    assert offer(session, "b", "bet")["choices"] == ["call", "fold"]


def test_it_11_everyone_checks_the_deal_is_passed_the_pot_stays_and_everyone_antes_again() -> None:
    session = italian()
    events = bet(session, ("b", "check"), ("c", "check"), ("d", "check"), ("a", "check"))
    passed = one(events, NOBODY_OPENED)
    assert passed.pot == 40
    assert session.state.pot == 40
    assert events[-1].type == DEAL_ENDED
    assert session.state.live is None
    assert not of_type(events, CARDS_DRAWN)
    assert not of_type(events, POTS_AWARDED)
    assert session.state.deal.outcome == "no_open"
    start(session)  # the next dealer: b
    deal = session.state.live
    assert deal.dealer == "b"
    assert deal.order == ("c", "d", "a", "b")
    assert sorted(one(session.events[-20:], ANTES_POSTED).paid) == ["a", "b", "c", "d"]
    assert session.state.pot == 80


def test_it_11_d_it_02_a_redeal_whether_or_not_somebody_could_have_opened() -> None:
    session = italian()  # b and c could open
    events = bet(session, ("b", "check"), ("c", "check"), ("d", "check"), ("a", "check"))
    assert one(events, NOBODY_OPENED)


def test_d_it_02_a_turn_that_times_out_checks_if_it_can_else_folds() -> None:
    session = italian()
    timed = session.do(ExpireDeclare(1), later(31))
    assert [(e.player, e.action, e.timed_out) for e in of_type(timed, BET_MADE)] == [("b", "check", True)]
    bet(session, ("c", "open"))
    timed = session.do(ExpireDeclare(1), later(31 + 31))
    assert [(e.player, e.action) for e in of_type(timed, BET_MADE)] == [("d", "fold")]


# --- the draw: IT-12..16, EX-11, D-IT-03, D-IT-05 ---------------------------------------------------

DRAWS = "Ts Th Td 9c 9d Qs Kc 8s"  # the stock after the deal, top first


def test_it_12_13_the_active_players_draw_0_to_4_in_turn_from_the_dealers_left() -> None:
    """IT-12: the players still in exchange 0 to 4 cards; IT-13: in turn from the dealer's left,
    each discards that many and is given as many."""
    session = opened(italian(draws=DRAWS))
    assert session.state.live.awaiting == ("b",)  # d folded: not asked
    assert offer(session, "b", "exchange")["max"] == 4
    assert (
        session.fails(Exchange("b", 1, ["7c", "8d", "9s", "Jh", "Js"], split_openers=True))
        == "invalid_discards"
    )
    events = draw(session, "b", "7c 8d")
    drawn = one(events, CARDS_DRAWN)
    assert (drawn.count, drawn.drawn, drawn.cards) == (2, ["Ts", "Th"], ["Jh", "Js", "9s", "Ts", "Th"])
    assert session.state.live.awaiting == ("c",)
    draw(session, "c")  # stands pat
    assert session.state.live.awaiting == ("a",)


def test_it_15_ex_11_a_four_card_draw_gets_three_and_the_fourth_after_everyone_else() -> None:
    session = opened(italian(draws=DRAWS))
    first = one(draw(session, "b", "7c 8d 9s Jh", split=True), CARDS_DRAWN)
    assert (first.count, first.drawn, len(first.cards)) == (4, ["Ts", "Th", "Td"], 4)
    draw(session, "c", "7d")
    events = draw(session, "a", "7s")
    last = [e for e in of_type(events, CARDS_DRAWN) if e.player == "b"]
    assert len(last) == 1
    assert last[0].deferred
    assert last[0].drawn == ["Qs"]
    assert [e.player for e in of_type(events, CARDS_DRAWN)] == ["a", "b"]
    assert len(session.state.live.hand_of("b")) == 5
    assert session.state.current_step().kind == "betting"
    assert table_view(session.state, Viewer("c"), T0)["deal"]["draws"] == {"b": 4, "c": 1, "d": 0, "a": 1}


def test_it_16_d_it_03_the_opener_discards_openers_only_by_saying_so() -> None:
    session = opened(italian(draws=DRAWS))
    assert offer(session, "b", "exchange")["openers"] == ["Jh", "Js"]
    assert session.fails(Exchange("b", 1, ["Js"])) == "invalid_split"
    assert session.fails(Exchange("b", 1, ["7c"], split_openers=True)) == "invalid_split"
    drawn = one(draw(session, "b", "Js 7c", split=True), CARDS_DRAWN)
    assert drawn.split_openers
    assert drawn.to_json()["split_openers"] is True
    draw(session, "c")
    assert session.fails(Exchange("a", 1, [], split_openers=True)) == "invalid_split"


def test_it_14_d_gen_02_the_discards_are_reshuffled_the_openers_kept_apart() -> None:
    # Six players: the 40-card pack (5s up), 30 dealt, 10 in the stock.
    hands = (
        "Jh Js 5c 6d 7s",
        "Qh 5d 6c 8c Tc",
        "Ah Kd 9h 8h 6h",
        "As Ad Ks Kh 7h",
        "5h 6s 8d 9s Th",
        "5s 7d 8s 9d Td",
    )
    session = italian("abcdef", hands=hands, ante=10)
    bet(session, ("b", "open"), ("c", "call"), ("d", "call"), ("e", "call"), ("f", "call"), ("a", "call"))
    draw(session, "b", "5c 6d 7s")  # the opener: kept apart
    draw(session, "c", "5d 6c 8c")
    draw(session, "d", "9h 8h 6h")  # stock: 1 left
    events = draw(session, "e", "Ks Kh 7h")
    reshuffled = one(events, STOCK_RESHUFFLED)
    assert sorted(reshuffled.cards) == sorted(["5d", "6c", "8c", "9h", "8h", "6h"])
    assert not {"5c", "6d", "7s"} & set(reshuffled.cards)  # IT-16: kept apart
    everything = [c for h in session.state.live.hands for c in h]
    assert len(everything) == len(set(everything)) == 30


# --- the second betting round: IT-17, D-IT-02 -------------------------------------------------------


def _drawn(session: Session) -> Session:
    """Everyone still in stands pat."""
    while session.state.live is not None and session.state.current_step().kind == "draw":
        draw(session, session.state.live.awaiting[0])
    return session


def test_it_17_the_second_round_is_opened_by_the_opener_and_bets_twice_the_unit() -> None:
    session = _drawn(opened(italian(draws=DRAWS)))
    assert session.state.live.awaiting == ("b",)
    assert offer(session, "b", "bet")["amounts"] == {"check": 0, "bet": 20, "fold": 0}


def test_it_17_a_folded_openers_left_neighbour_opens_the_second_round() -> None:
    session = italian(draws=DRAWS)
    bet(session, ("b", "open"), ("c", "raise"), ("d", "fold"), ("a", "call"), ("b", "fold"))
    _drawn(session)
    assert session.state.live.awaiting == ("c",)


# --- the showdown: IT-18, IT-30, D-IT-03, D-IT-04 ---------------------------------------------------


def test_it_18_the_best_hand_wins_the_pot_and_the_openers_are_shown() -> None:
    session = opened(italian(draws=DRAWS))
    _drawn(session)
    events = bet(session, ("b", "check"), ("c", "check"), ("a", "check"))
    shown = one(events, SHOWDOWN_HELD)
    assert [h["player"] for h in shown.hands] == ["b", "c", "a"]  # d folded: not shown
    awarded = one(events, POTS_AWARDED)
    assert awarded.pots == [
        {
            "pot": 0,
            "amount": 70,
            "contributors": ["b", "c", "d", "a"],
            "eligible": ["b", "c", "a"],
            "winners": ["a"],
            "shares": {"a": 70},
        }
    ]
    assert one(events, OPENERS_SHOWN).openers == ["Jh", "Js"]
    assert session.state.pot == 0
    assert session.state.bets == 0
    assert session.stack("a") == 1000 - 20 + 70


def test_d_it_03_a_lone_player_wins_without_showing_but_the_openers_are_shown() -> None:
    session = italian()
    events = bet(session, ("b", "open"), ("c", "fold"), ("d", "fold"), ("a", "fold"))
    shown = one(events, SHOWDOWN_HELD)
    assert (shown.reason, shown.hands, shown.winners) == ("uncontested", [], ["b"])
    assert one(events, OPENERS_SHOWN).openers == ["Jh", "Js"]
    assert one(events, POTS_AWARDED).returned == {"player": "b", "amount": 10}  # uncalled
    assert session.stack("b") == 1000 + 30
    view = table_view(session.state, Viewer("c"), T0)
    assert next(p for p in view["deal"]["players"] if p["player"] == "b")["cards"] is None


def test_it_32_ex_17_d_it_04_equal_hands_the_suit_decides() -> None:
    # b and a: straights Q-J-10-9-8; a's queen of hearts beats b's queen of spades (EX-17).
    hands = ("Qs Jh Th 9h 8h", "Kh Kd 7d 8c 7c", "Ah Kc 9d 8d 7h", "Qh Js Tc 9c 8s")
    session = italian(hands=hands)
    bet(session, ("b", "open"), ("c", "call"), ("d", "fold"), ("a", "call"))
    _drawn(session)
    events = bet(session, ("b", "check"), ("c", "check"), ("a", "check"))
    assert one(events, POTS_AWARDED).pots[0]["winners"] == ["a"]


def test_it_38_40_d_it_04_the_fantini_preset_is_a_table_option() -> None:
    assert validate_options("italian", {"ties": "fantini"})["ties"] == "fantini"
    # b K-K-J-9-8 with the jack of hearts; a K-K-J-9-8 with the king of hearts: by default the
    # pair with the heart wins (IT-36), under Fantini the higher-suited jack (IT-39, EX-19).
    hands = ("Kd Ks Jh 9c 8c", "Qh Qd 7d 8d 7c", "Ah Td 9d Tc 7h", "Kh Kc Js 9h 8h")
    for ties, winner in (("fantini", "b"), ("default", "a")):
        session = italian(hands=hands, ties=ties)
        bet(session, ("b", "open"), ("c", "fold"), ("d", "fold"), ("a", "call"))
        _drawn(session)
        events = bet(session, ("b", "check"), ("a", "check"))
        assert one(events, POTS_AWARDED).pots[0]["winners"] == [winner], ties


def test_it_30_ex_15_a_minimum_a_medium_and_a_maximum_straight_flush_split_the_pot() -> None:
    # Four players (7s up): minimum A-7-8-9-10 of clubs, medium 8-9-10-J-Q of diamonds, maximum
    # A-K-Q-J-10 of hearts.
    hands = ("Ac 7c 8c 9c Tc", "8d 9d Td Jd Qd", "Ah Kh Qh Jh Th", "7s 8s 9s Js Ks")
    session = italian(hands=hands)
    bet(session, ("b", "check"), ("c", "open"), ("d", "call"), ("a", "fold"), ("b", "call"))
    _drawn(session)
    events = bet(session, ("c", "check"), ("d", "check"), ("b", "check"))
    pot = one(events, POTS_AWARDED).pots[0]
    assert pot["amount"] == 70
    assert pot["winners"] == ["b", "c", "d"]
    assert pot["shares"] == {"b": 24, "c": 23, "d": 23}  # D-GEN-01: b first


# --- all-in and side pots: D-IT-02 ------------------------------------------------------------------


def test_d_it_02_three_all_ins_of_different_sizes_make_two_side_pots() -> None:
    # Stacks after the ante: b 1000-10, c 30, d 60, a 100 (bought in at 40, topped up).
    session = italian(buy_in=40, stacks={"b": 960, "d": 30, "a": 70}, min_buy_in=20)
    assert [session.stack(p) for p in "bcda"] == [990, 30, 60, 100]
    bet(session, ("b", "open"), ("c", "raise"))  # c: 20 of his 30
    assert offer(session, "d", "bet")["amounts"] == {"call": 20, "raise": 30, "fold": 0}
    bet(session, ("d", "raise"), ("a", "raise"), ("b", "call"))  # 30, 40
    assert offer(session, "c", "bet")["amounts"] == {"call": 10, "fold": 0}  # all in for 10
    bet(session, ("c", "call"), ("d", "call"))
    assert [session.stack(p) for p in "bcda"] == [950, 0, 20, 60]
    pots = table_view(session.state, Viewer("a"), T0)["deal"]["betting"]["pots"]
    assert [(p["amount"], p["eligible"]) for p in pots] == [
        (160, ["b", "c", "d", "a"]),
        (30, ["b", "d", "a"]),
    ]
    _drawn(session)
    assert session.state.live.awaiting == ("b",)  # c is all in: not asked
    bet(session, ("b", "bet"), ("d", "call"), ("a", "raise"))  # d all in for 20
    events = bet(session, ("b", "call"))
    awarded = one(events, POTS_AWARDED)
    # c: QQ, d: AK high, a: AAKK, b: JJ; a wins every pot he is in.
    assert [(p["amount"], p["eligible"], p["winners"]) for p in awarded.pots] == [
        (160, ["b", "c", "d", "a"], ["a"]),
        (90, ["b", "d", "a"], ["a"]),
        (40, ["b", "a"], ["a"]),
    ]
    assert session.stack("a") == 20 + 290
    assert session.state.pot == 0
    assert session.state.bets == 0
    assert sum(session.stack(p) for p in "abcd") == 4 * 40 + 960 + 30 + 70


def test_d_it_02_a_side_pot_goes_to_the_best_hand_among_its_contributors() -> None:
    # c (queens) is all in for the main pot only and has the best hand among b, c, d; a folds.
    hands = ("Jh Js 7c 8d 9s", "Qh Qd 7d 8c Tc", "Ah Kd 9h 8h 7h", "Ts 9d Ks 8s 7s")
    session = italian(hands=hands, buy_in=30, stacks={"b": 970, "d": 970, "a": 970}, min_buy_in=20)
    bet(session, ("b", "open"), ("c", "raise"), ("d", "call"), ("a", "fold"), ("b", "call"))
    assert session.stack("c") == 0
    _drawn(session)
    events = bet(session, ("b", "bet"), ("d", "call"))
    pots = one(events, POTS_AWARDED).pots
    assert [(p["amount"], p["eligible"], p["winners"]) for p in pots] == [
        (100, ["b", "c", "d"], ["c"]),
        (40, ["b", "d"], ["b"]),
    ]
    assert transfers(events)[-1] == ("sidepot:t1:1", "seat:b", 40)  # the side pot's own account


def test_d_it_02_an_uncalled_bet_returns_to_its_bettor() -> None:
    session = italian(buy_in=30, stacks={"b": 970, "d": 970, "a": 970}, min_buy_in=20)
    bet(session, ("b", "open"), ("c", "raise"), ("d", "raise"), ("a", "fold"), ("b", "fold"))
    assert session.stack("c") == 0  # c all in: 20 of d's 30
    _drawn(session)  # no second round: c is all in
    awarded = one(session.events, POTS_AWARDED)
    assert awarded.returned == {"player": "d", "amount": 10}
    assert ("bets", "seat:d", 10) in transfers([awarded])


def test_d_it_02_pot_limit_bets_from_the_unit_up_to_the_pot() -> None:
    session = italian(limit="pot")
    action = offer(session, "b", "bet")
    assert action["amounts"]["open"] == 10
    assert action["most"]["open"] == 40
    bet(session, ("b", "open", 40))
    action = offer(session, "c", "bet")
    assert action["amounts"]["raise"] == 40 + 40  # the least raise: the last bet's size
    assert action["most"]["raise"] == 40 + 120  # the pot after calling
    assert session.fails(Bet("c", 1, "raise", 500)) == "invalid_amount"
    assert session.fails(Bet("c", 1, "raise", 79)) == "invalid_amount"


# --- conservation -----------------------------------------------------------------------------------


def test_every_event_conserves_chips_and_the_pots_sum_to_the_contributions() -> None:
    session = italian(buy_in=40, stacks={"b": 960, "d": 30, "a": 70}, min_buy_in=20)
    bet(
        session,
        ("b", "open"),
        ("c", "raise"),
        ("d", "raise"),
        ("a", "raise"),
        ("b", "call"),
        ("c", "call"),
        ("d", "call"),
    )
    _drawn(session)
    bet(session, ("b", "bet"), ("d", "call"), ("a", "raise"), ("b", "call"))
    ledger = Ledger()
    for event in session.events:
        ledger.post(event)
    awarded = one(session.events, POTS_AWARDED)
    paid = sum(t.amount for t in awarded.transfers)
    bets = sum(t.amount for e in of_type(session.events, BET_MADE) for t in e.transfers)
    assert paid == 40 + bets == sum(p["amount"] for p in awarded.pots) + 0
    for account in ("pot:t1", "bets:t1"):
        assert ledger.balances[account] == 0


def test_openers_are_secret_until_shown() -> None:
    session = italian()
    made = one(bet(session, ("b", "open")), BET_MADE)
    assert redact_event(made.type, made.to_json(), Viewer("c"), deal_over=False)["openers"] is None
    assert redact_event(made.type, made.to_json(), Viewer("b"), deal_over=False)["openers"] == ["Jh", "Js"]


def test_it_07_openers_of_each_category() -> None:
    assert openers(["Jh", "Js", "7c", "8d", "9s"], "italian", 4) == ("Jh", "Js")
    assert openers(["Th", "Ts", "7c", "8d", "9s"], "italian", 4) is None
    assert openers(["7h", "7s", "8c", "8d", "9s"], "italian", 4) == ("7h", "7s", "8c", "8d")
    assert openers(["7h", "8s", "9c", "Td", "Js"], "italian", 4) == ("7h", "8s", "9c", "Td", "Js")


def test_d_gen_05_the_deal_passes_to_the_left_after_a_showdown() -> None:
    session = italian()
    bet(session, ("b", "open"), ("c", "fold"), ("d", "fold"), ("a", "fold"))
    assert session.state.deal.over
    start(session)
    assert session.state.live.dealer == "b"
    assert of_type(session.events, BET_TURN_OPENED)


def test_d_it_02_a_four_way_all_in_with_a_tie_in_a_side_pot_and_an_uncalled_bet() -> None:
    # b a spade flush, c the minimum straight flush, d a medium one, a the maximum (IT-28, IT-30).
    hands = ("7s 8s 9s Js Ks", "Ac 7c 8c 9c Tc", "8d 9d Td Jd Qd", "Ah Kh Qh Jh Th")
    session = italian(hands=hands, buy_in=30, stacks={"c": 20, "d": 40, "a": 970}, min_buy_in=20)
    assert [session.stack(p) for p in "bcda"] == [20, 40, 60, 990]
    bet(
        session,
        ("b", "open"),
        ("c", "raise"),
        ("d", "raise"),
        ("a", "raise"),
        ("b", "call"),
        ("c", "call"),
        ("d", "call"),
    )  # b all in for 20, c for 40
    assert [session.stack(p) for p in "bcda"] == [0, 0, 20, 950]
    _drawn(session)
    assert session.state.live.awaiting == ("d",)  # IT-17: b and c are all in
    bet(session, ("d", "bet"), ("a", "raise"))  # d all in; a's raise uncalled
    awarded = one(session.events, POTS_AWARDED)
    assert awarded.returned == {"player": "a", "amount": 20}
    assert [(p["amount"], p["eligible"], p["shares"]) for p in awarded.pots] == [
        (120, ["b", "c", "d", "a"], {"c": 40, "d": 40, "a": 40}),  # IT-30: the cycle splits
        (60, ["c", "d", "a"], {"c": 20, "d": 20, "a": 20}),
        (40, ["d", "a"], {"a": 40}),
    ]  # the maximum beats the medium
    assert [session.stack(p) for p in "bcda"] == [0, 60, 60, 1030]
    ledger = Ledger()
    for event in session.events:
        ledger.post(event)
    assert (ledger.balances["pot:t1"], ledger.balances["bets:t1"]) == (0, 0)


def test_d_it_02_a_draw_that_times_out_stands_pat() -> None:
    session = opened(italian(draws=DRAWS))
    events = session.do(ExpireDeclare(1), later(31))
    drawn = one(events, CARDS_DRAWN)
    assert (drawn.player, drawn.count, drawn.timed_out) == ("b", 0, True)
    assert session.state.live.hand_of("b") == tuple(HANDS[0].split())


def test_d_it_03_d_gen_02_a_reshuffles_cards_and_salts_are_secret_and_an_opens_openers() -> None:
    """IT-14's reshuffled stock (and, in a schema-2 deal, the salts that seal its new slots) and
    the openers of an open (D-IT-03) are secret keys: the store seals them."""
    assert secret_keys("StockReshuffled", {"cards": ["As"], "salts": ["00"]}) == ("cards", "salts")
    assert secret_keys("StockReshuffled", {"cards": ["As"]}) == ("cards",)
    assert secret_keys("BetMade", {"action": "open", "openers": ["Jh", "Js"]}) == ("openers",)
    assert secret_keys("BetMade", {"action": "call"}) == ()
