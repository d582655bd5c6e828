"""Italian poker's money (D-IT-02, D-GEN-01): every side pot an account of the deal, all-ins of
different sizes with exact pot-by-pot awards, a tie in a side pot, the uncalled bet, the short
all-in raise that does not reopen the betting, and pot limit's least and most.

Players "abcd" (and "abcde"): the first dealer is a, so cards and action go b, c, d, a; ante 10,
so the bet unit is 10 (20 in the second round).
"""

from __future__ import annotations

from collections.abc import Iterable

from tables.engine.decider.commands import Bet
from tables.engine.decider.events import BET_MADE, BETS_GATHERED, POTS_AWARDED, Event
from tables.engine.decider.evolve import evolve
from tables.engine.decider.state import TableState, initial_state
from tables.engine.decider.view import Viewer, table_view

from .helpers import T0, Ledger, of_type, one, roundtrip, transfers
from .test_italian_poker import _drawn, bet, italian, offer

TABLE_ACCOUNTS = ("pot:t1", "bets:t1", "reserve:t1", "seat:t1:", "sidepot:t1:")


def table_chips(state: TableState) -> int:
    """Every chip at the table: the stacks, the pot, the side pots, the bets, the reserve."""
    return sum(s.stack for s in state.seats) + state.pot + sum(state.side_pots) + state.bets + state.reserve


def assert_accounts_follow_the_state(events: Iterable[Event]) -> None:
    """After every event (read back through JSON): the transfers are double entry (the Ledger),
    the table's accounts hold exactly what the folded state says (the pot, each side pot, the
    bets, every stack), no table account is negative, and the table's chips change only by what
    crosses its edge (buy-ins, top-ups, cash-outs)."""
    ledger, state = Ledger(), initial_state()
    for event in roundtrip(events):
        before = table_chips(state)
        state = evolve(state, event)
        ledger.post(event)
        crossing = sum(
            t["amount"] * ((t["to"].startswith(TABLE_ACCOUNTS)) - (t["from"].startswith(TABLE_ACCOUNTS)))
            for t in event.data.get("transfers", ())
        )
        assert table_chips(state) == before + crossing, event.type
        balances = ledger.balances
        assert (balances["pot:t1"], balances["bets:t1"]) == (state.pot, state.bets), event.type
        sides = [balances[f"sidepot:t1:{n}"] for n in range(1, 11)]
        assert sides[: len(state.side_pots)] == list(state.side_pots), event.type
        assert not any(sides[len(state.side_pots) :]), event.type
        for seat in state.seats:
            assert balances[f"seat:t1:{seat.player}"] == seat.stack >= 0
        assert all(v >= 0 for a, v in balances.items() if a.startswith(TABLE_ACCOUNTS)), event.type


def test_d_it_02_a_side_pot_is_an_account_of_the_deal() -> None:
    # Stacks after the ante: b 990, c 30, d 60, a 100. The first round ends with c all in for 30
    # and everyone else at 40: its bets are gathered, 150 into the main pot beside the 40 of
    # antes, 30 into side pot 1; the second round's are gathered into side pots 1 and 2.
    session = italian(buy_in=40, stacks={"b": 960, "d": 30, "a": 70}, min_buy_in=20)
    bet(session, ("b", "open"), ("c", "raise"), ("d", "raise"), ("a", "raise"), ("b", "call"))
    assert (session.state.bets, session.state.side_pots) == (130, ())  # the round is open
    events = bet(session, ("c", "call"), ("d", "call"))
    gathered = one(events, BETS_GATHERED)
    assert gathered.round == 1
    assert transfers([gathered]) == [("bets", "pot", 120), ("bets", "sidepot:t1:1", 30)]
    assert [(p["pot"], p["account"], p["amount"], p["contributions"]) for p in gathered.pots] == [
        (0, "pot:t1", 160, {"b": 30, "c": 30, "d": 30, "a": 30}),
        (1, "sidepot:t1:1", 30, {"b": 10, "d": 10, "a": 10}),
    ]
    assert (session.state.pot, session.state.side_pots, session.state.bets) == (160, (30,), 0)
    _drawn(session)
    bet(session, ("b", "bet"))
    pots = table_view(session.state, Viewer("c"), T0)["deal"]["betting"]["pots"]
    assert [(p["account"], p["held"], p["amount"]) for p in pots] == [
        ("pot:t1", 160, 160),
        ("sidepot:t1:1", 30, 30),  # b's 20, uncalled so far, is in no pot: in the bets account
    ]
    assert session.state.bets == 20
    events = bet(session, ("d", "call"), ("a", "raise"), ("b", "call"))  # d all in for 20
    gathered = one(events, BETS_GATHERED)
    assert gathered.round == 2
    assert transfers([gathered]) == [("bets", "sidepot:t1:1", 60), ("bets", "sidepot:t1:2", 40)]
    awarded = one(events, POTS_AWARDED)
    assert transfers([awarded]) == [
        ("pot", "seat:a", 160),
        ("sidepot:t1:1", "seat:a", 90),
        ("sidepot:t1:2", "seat:a", 40),
    ]  # each pot from its own account
    assert (session.state.pot, session.state.side_pots, session.state.bets) == (0, (), 0)
    assert_accounts_follow_the_state(session.events)


def test_d_it_02_four_all_ins_of_different_sizes_exact_pot_by_pot_awards() -> None:
    # Stacks after the ante: b 10, c 25, d 35, a 990; a holds the best hand, then c, d, b. Three
    # all in at three sizes against a, whose last 5 nobody can call.
    hands = ("Th Ts 7c 8d 9s", "Kh Kd 7d 8c Tc", "Qh Qd 9h 8h 7h", "As Ad Js Jh 7s")
    session = italian(hands=hands, buy_in=20, stacks={"c": 15, "d": 25, "a": 980}, min_buy_in=20)
    assert [session.stack(p) for p in "bcda"] == [10, 25, 35, 990]
    bet(session, ("b", "check"), ("c", "check"), ("d", "check"), ("a", "open"))
    bet(session, ("b", "call"), ("c", "raise"), ("d", "raise"))  # b all in for 10; c 20, d 30
    assert offer(session, "a", "bet")["amounts"] == {"call": 20, "raise": 30, "fold": 0}
    bet(session, ("a", "raise"))  # to 40, the third raise
    events = bet(session, ("c", "call"), ("d", "call"))  # all in for 25 and 35
    assert one(events, BETS_GATHERED).pots == [
        {
            "pot": 0,
            "account": "pot:t1",
            "amount": 40 + 40,
            "before_betting": 40,
            "contributors": ["b", "c", "d", "a"],
            "contributions": {"b": 10, "c": 10, "d": 10, "a": 10},
            "eligible": ["b", "c", "d", "a"],
        },
        {
            "pot": 1,
            "account": "sidepot:t1:1",
            "amount": 45,
            "before_betting": 0,
            "contributors": ["c", "d", "a"],
            "contributions": {"c": 15, "d": 15, "a": 15},
            "eligible": ["c", "d", "a"],
        },
        {
            "pot": 2,
            "account": "sidepot:t1:2",
            "amount": 20,
            "before_betting": 0,
            "contributors": ["d", "a"],
            "contributions": {"d": 10, "a": 10},
            "eligible": ["d", "a"],
        },
    ]
    assert session.state.bets == 5  # the uncalled part waits in the bets account
    _drawn(session)  # no second round: only a can bet
    awarded = one(session.events, POTS_AWARDED)
    assert awarded.returned == {"player": "a", "amount": 5}
    assert [(p["amount"], p["eligible"], p["shares"]) for p in awarded.pots] == [
        (80, ["b", "c", "d", "a"], {"a": 80}),
        (45, ["c", "d", "a"], {"a": 45}),
        (20, ["d", "a"], {"a": 20}),
    ]
    assert transfers([awarded])[0] == ("bets", "seat:a", 5)
    assert [session.stack(p) for p in "bcda"] == [0, 0, 0, 990 - 40 + 5 + 145]
    assert_accounts_follow_the_state(session.events)


def test_d_it_02_d_gen_01_it_30_a_tie_in_a_side_pot_shares_it_with_the_odd_chip_to_the_dealers_left() -> None:
    # Five players, the 36-card pack (6s up, D-IT-01). b (a flush) is all in for 6 in the main
    # pot only; c, d and a hold the minimum, a medium and the maximum straight flush (IT-30),
    # e calls the first round and folds the second: his chips stay in the pots he paid into.
    hands = (
        "6s 7s 8s 9s Ks",  # b
        "Ac 6c 7c 8c 9c",  # c: minimum
        "8d 9d Td Jd Qd",  # d: medium
        "6h 7h 9h Kc Qs",  # e
        "Ah Kh Qh Jh Th",  # a: maximum
    )
    stacks = dict.fromkeys("cdea", 984)
    session = italian("abcde", hands=hands, buy_in=16, stacks=stacks, min_buy_in=10)
    assert session.stack("b") == 6
    bet(session, ("b", "check"), ("c", "open"), ("d", "call"), ("e", "call"), ("a", "call"))
    bet(session, ("b", "call"))  # all in for 6
    _drawn(session)
    events = bet(session, ("c", "bet"), ("d", "call"), ("e", "fold"), ("a", "call"))
    awarded = one(events, POTS_AWARDED)
    assert [(p["amount"], p["contributors"], p["eligible"], p["shares"]) for p in awarded.pots] == [
        (50 + 5 * 6, ["b", "c", "d", "e", "a"], ["b", "c", "d", "a"], {"c": 27, "d": 27, "a": 26}),
        (3 * 24 + 4, ["c", "d", "e", "a"], ["c", "d", "a"], {"c": 26, "d": 25, "a": 25}),
    ]  # 80 = 3 x 26 + 2 and 76 = 3 x 25 + 1: the odd chips to c, then d (D-GEN-01)
    assert transfers([awarded])[3:] == [
        ("sidepot:t1:1", "seat:c", 26),
        ("sidepot:t1:1", "seat:d", 25),
        ("sidepot:t1:1", "seat:a", 25),
    ]
    assert_accounts_follow_the_state(session.events)


def test_d_it_02_an_uncalled_bet_of_the_second_round_returns_from_the_bets_account() -> None:
    session = italian()
    bet(session, ("b", "open"), ("c", "call"), ("d", "fold"), ("a", "fold"))
    _drawn(session)
    events = bet(session, ("b", "bet"), ("c", "fold"))
    assert not of_type(events, BETS_GATHERED)  # nothing called: nothing to gather
    awarded = one(events, POTS_AWARDED)
    assert awarded.returned == {"player": "b", "amount": 20}
    assert transfers([awarded]) == [("bets", "seat:b", 20), ("pot", "seat:b", 60)]
    assert session.stack("b") == 1000 - 10 - 10 + 60
    assert_accounts_follow_the_state(session.events)


# --- the short all-in raise (D-IT-02, as standard poker and PokerKit) ------------------------------


def test_d_it_02_an_all_in_raise_of_less_than_a_full_raise_does_not_reopen_the_betting() -> None:
    # d has 15 after the ante: facing b's open of 10 his "raise" is all in for 15, 5 above the
    # open, half a unit. b and c, who acted before it, may only call or fold; a, who had not
    # acted, may raise; a full raise by a reopens the betting to b and c.
    session = italian(buy_in=25, stacks={"b": 975, "c": 975, "a": 975}, min_buy_in=20)
    assert session.stack("d") == 15
    bet(session, ("b", "open"), ("c", "call"))
    assert offer(session, "d", "bet")["amounts"] == {"call": 10, "raise": 15, "fold": 0}
    made = one(bet(session, ("d", "raise")), BET_MADE)
    assert (made.amount, made.all_in) == (15, True)
    assert offer(session, "a", "bet")["amounts"] == {"call": 15, "raise": 25, "fold": 0}
    bet(session, ("a", "call"))
    assert offer(session, "b", "bet")["choices"] == ["call", "fold"]
    assert session.fails(Bet("b", 1, "raise")) == "bet_not_allowed"
    bet(session, ("b", "call"))
    assert offer(session, "c", "bet")["choices"] == ["call", "fold"]


def test_d_it_02_a_full_raise_after_a_short_all_in_reopens_the_betting() -> None:
    session = italian(buy_in=25, stacks={"b": 975, "c": 975, "a": 975}, min_buy_in=20)
    bet(session, ("b", "open"), ("c", "call"), ("d", "raise"), ("a", "raise"))  # d 15 all in; a 25
    assert offer(session, "b", "bet")["amounts"] == {"call": 15, "raise": 25, "fold": 0}


def test_d_it_02_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting() -> None:
    # c all in for 15 (5 above the open), d all in for 20 (5 more): 10 above b's open in all.
    session = italian(buy_in=25, stacks={"b": 975, "d": 5, "a": 975}, min_buy_in=20)
    bet(session, ("b", "open"), ("c", "raise"), ("d", "raise"), ("a", "call"))
    assert [session.stack(p) for p in "cd"] == [0, 0]
    assert offer(session, "b", "bet")["choices"] == ["call", "raise", "fold"]


def test_d_it_02_a_short_all_in_raise_counts_toward_the_three_raises() -> None:
    session = italian(buy_in=25, stacks={"b": 975, "c": 975, "a": 975}, min_buy_in=20)
    bet(session, ("b", "open"), ("c", "call"), ("d", "raise"))  # d all in for 15: a short raise
    assert one(session.events[-3:], BET_MADE).amount == 15
    bet(session, ("a", "raise"), ("b", "raise"))  # to 25 and 35: the second and third raises
    assert offer(session, "c", "bet")["choices"] == ["call", "fold"]
    assert session.fails(Bet("c", 1, "raise")) == "raise_limit"


# --- pot limit (D-IT-02: the round's unit, the last raise, the pot after calling) --------------------


def test_d_it_02_pot_limit_the_least_raise_is_the_last_raise_the_most_the_pot_after_calling() -> None:
    session = italian(limit="pot")
    bet(session, ("b", "open", 20))  # pot 40: an open of 10 to 40
    action = offer(session, "c", "bet")
    assert (action["amounts"]["raise"], action["most"]["raise"]) == (20 + 20, 20 + (60 + 20))
    bet(session, ("c", "raise", 60))  # to 60: a raise of 40
    action = offer(session, "d", "bet")
    assert (action["amounts"]["raise"], action["most"]["raise"]) == (60 + 40, 60 + (120 + 60))
    assert session.fails(Bet("d", 1, "raise", 99)) == "invalid_amount"


def test_d_it_02_pot_limit_the_second_round_bets_at_least_twice_the_unit() -> None:
    session = italian(limit="pot")
    bet(session, ("b", "open"), ("c", "call"), ("d", "fold"), ("a", "call"))
    _drawn(session)
    action = offer(session, "b", "bet")
    assert (action["unit"], action["amounts"]["bet"], action["most"]["bet"]) == (20, 20, 70)
    assert session.fails(Bet("b", 1, "bet", 19)) == "invalid_amount"
    bet(session, ("b", "bet", 30))
    action = offer(session, "c", "bet")  # the least raise: the bet's 30; the most: the pot after calling
    assert (action["amounts"]["raise"], action["most"]["raise"]) == (30 + 30, 30 + (100 + 30))


def test_d_it_02_the_view_shows_the_pots_their_accounts_contributions_and_what_each_must_call() -> None:
    session = italian(buy_in=40, stacks={"b": 960, "d": 30, "a": 70}, min_buy_in=20)
    bet(session, ("b", "open"), ("c", "raise"), ("d", "raise"), ("a", "raise"), ("b", "call"))
    view = table_view(session.state, Viewer("c"), T0)
    betting = view["deal"]["betting"]
    assert (betting["opener"], betting["round"], betting["high"]) == ("b", 1, 40)
    assert betting["to_call"] == {"b": 0, "c": 20, "d": 10, "a": 0}
    assert [(p["contributors"], p["contributions"], p["eligible"]) for p in betting["pots"]] == [
        (["b", "c", "d", "a"], {"b": 20, "c": 20, "d": 20, "a": 20}, ["b", "c", "d", "a"]),
        (["b", "d", "a"], {"b": 10, "d": 10, "a": 10}, ["b", "d", "a"]),
        (["b", "a"], {"b": 10, "a": 10}, ["b", "a"]),
    ]  # the stakes so far; nothing gathered yet
    assert [(p["before_betting"], p["held"]) for p in betting["pots"]] == [(40, 40), (0, 0), (0, 0)]
    action = next(a for a in view["legal_actions"] if a["action"] == "bet")
    assert (action["to_call"], action["amounts"], action["most"]) == (
        20,
        {"call": 10, "fold": 0},
        {"call": 10, "fold": 0},
    )  # c has 10: all in for less
