"""Tournament tables (docs: /work/notes/TOURNAMENT_INTERFACE.md): the tournament's own
unit (DESIGN §2.4), its commands (seat, move, remove entrants, break, finish, ante levels), the
idempotent next deal, table stakes by pay_what_you_have (D-GEN-06), D-GEN-07/D-GEN-01 at a break,
and the cash commands refused. Given events, when a command, then events or an error code.

Seats a, b, c, d. Deal 1: dealer a, order b, c, d, a.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import (
    BreakTable,
    CloseTable,
    Declare,
    ExpireDeclare,
    FinishTable,
    Leave,
    MoveEntrantIn,
    MoveEntrantOut,
    OpenTable,
    RemoveEntrant,
    SeatEntrant,
    SetAnte,
    SitDown,
    SitOut,
    StartDeal,
    TopUp,
)
from tables.engine.decider.decide import decide
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    DEAL_STARTED,
    PLAYER_SAT_OUT,
    TABLE_OPENED,
    Event,
    TableOpened,
)
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.decider.view import Viewer, legal_actions, table_view

from .helpers import (
    SEED,
    T0,
    TABLE,
    Ledger,
    Session,
    assert_folds_back,
    initial,
    later,
    of_type,
    one,
    stack_deck,
    start,
    table,
    transfers,
)

TID = "tour-1"
UNIT = f"t:{TID}"
BANK = f"chipbank:{TID}"
DECK = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")  # b, c, d, a (dealer a)


def tournament_table(
    players: str = "abcd",
    *,
    table_id: str = TABLE,
    chips: int = 1000,
    decks: list[list[str]] | None = None,
    **options: object,
) -> Session:
    """Given: a tournament's table with these entrants seated (seat order) with `chips` each."""
    session = Session()
    session.do(
        OpenTable(
            table_id,
            "guts2",
            dict(options),
            stacked_decks=decks,
            stacked_allowed=decks is not None,
            tournament_id=TID,
        )
    )
    for player in players:
        session.do(SeatEntrant(player, chips))
    return session


def units(events: list[Event]) -> set[str]:
    return {t["unit"] for e in events for t in e.data.get("transfers", ())}


# --- opening ------------------------------------------------------------------------------------


def test_a_tournament_table_records_its_tournament_and_plays_in_its_unit() -> None:
    session = tournament_table("")
    opened = one(session.events, TABLE_OPENED).data
    assert opened["tournament_id"] == TID
    assert session.state.tournament_id == TID
    assert session.state.unit == UNIT


def test_a_cash_tables_opening_event_is_unchanged() -> None:
    opened = one(table("").events, TABLE_OPENED).data
    assert "tournament_id" not in opened  # OMIT_IF_DEFAULT
    assert TableOpened.from_json(opened).tournament_id is None
    assert table("").state.unit == "chips"


def test_d_gen_06_pay_what_you_have_is_the_tournament_default() -> None:
    assert tournament_table("").state.opts["stack_policy"] == "pay_what_you_have"
    assert tournament_table("", stack_policy="default").state.opts["stack_policy"] == "default"
    assert table("").state.opts["stack_policy"] == "default"


@pytest.mark.parametrize("options", [{"stack_policy": "allow_debt"}, {"end_on_empty_pot": True}])
def test_a_tournament_table_extends_no_credit_and_never_cashes_out(options: dict[str, object]) -> None:
    session = Session()
    assert session.fails(OpenTable(TABLE, "guts2", options, tournament_id=TID)) == "invalid_option"


# --- seating --------------------------------------------------------------------------------------


def test_seat_entrant_takes_chips_from_the_bank_in_the_tournaments_unit() -> None:
    session = tournament_table("a")
    events = session.do(SeatEntrant("b", 500))
    assert events[0].data == {
        "player": "b",
        "seat": 1,
        "chips": 500,
        "transfers": [
            {"from": BANK, "to": f"seat:{TABLE}:b", "amount": 500, "unit": UNIT, "reason": "tournament_chips"}
        ],
    }
    assert session.stack("b") == 500


def test_seat_entrant_may_name_a_free_seat() -> None:
    session = tournament_table("")
    assert session.do(SeatEntrant("a", 100, seat=4))[0].data["seat"] == 4
    assert session.do(SeatEntrant("b", 100))[0].data["seat"] == 0
    assert session.fails(SeatEntrant("c", 100, seat=4)) == "invalid_seat"
    assert session.fails(SeatEntrant("c", 100, seat=99)) == "invalid_seat"


def test_seat_entrant_guards() -> None:
    session = tournament_table("ab", seats=3)
    assert session.fails(SeatEntrant("a", 100)) == "already_seated"
    assert session.fails(SeatEntrant("c", 0)) == "invalid_amount"
    assert session.fails(SeatEntrant("c", -5)) == "invalid_amount"
    session.do(SeatEntrant("c", 100))
    assert session.fails(SeatEntrant("d", 100)) == "table_full"


def test_tournament_commands_wait_for_the_end_of_the_deal() -> None:
    session = tournament_table("abc", decks=[DECK])
    start(session)
    for command in (
        SeatEntrant("d", 100),
        MoveEntrantOut("a", "t2"),
        MoveEntrantIn("d", "t2", 5),
        RemoveEntrant("a"),
        BreakTable(),
        FinishTable("a"),
    ):
        assert session.fails(command) == "deal_in_progress", command


def test_tournament_commands_on_a_cash_table() -> None:
    session = table("ab")
    for command in (
        SeatEntrant("c", 100),
        MoveEntrantOut("a", "t2"),
        MoveEntrantIn("c", "t2", 5),
        RemoveEntrant("a"),
        BreakTable(),
        FinishTable("a"),
        SetAnte(5),
    ):
        assert session.fails(command) == "not_a_tournament_table", command


def test_cash_commands_on_a_tournament_table() -> None:
    session = tournament_table("ab")
    for command in (
        SitDown("c", 100),
        TopUp("a", 10),
        Leave("a"),
        SitOut("a"),
        CloseTable(),
        StartDeal("a", SEED),
        StartDeal(None, SEED),
    ):  # nor a club admin's deal
        assert session.fails(command) == "tournament_table", command


def test_legal_actions_offer_no_cash_commands_at_a_tournament_table() -> None:
    session = tournament_table("abcd", decks=[DECK])
    assert legal_actions(session.state, "a", T0) == []
    assert legal_actions(session.state, "z", T0) == []  # not seated: no sit_down
    start(session)
    actions = legal_actions(session.state, "b", T0)
    assert [a["action"] for a in actions] == ["declare"]
    view = table_view(session.state, Viewer(player_id="b"), T0)
    assert (view["tournament_id"], view["unit"]) == (TID, UNIT)


# --- playing ---------------------------------------------------------------------------------------


def test_every_transfer_of_a_deal_is_in_the_tournaments_unit() -> None:
    session = tournament_table("abcd", decks=[DECK], ante=10)
    events = start(session)
    events += session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    assert units(events) == {UNIT}
    assert transfers(events)[-2:] == [("pot", "seat:b", 40), ("seat:c", "pot", 40)]


def test_cash_tables_keep_cash_chips() -> None:
    session = table("abcd", decks=[DECK], ante=10)
    events = start(session) + session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    assert units(events) == {"chips"}


def test_d_gen_06_a_short_stack_antes_what_he_has_and_plays() -> None:
    session = tournament_table("abc", decks=[DECK], ante=10)
    session.do(RemoveEntrant("c"))
    session.do(SeatEntrant("c", 4))
    events = start(session)
    assert one(events, DEAL_STARTED).data["participants"] == ["b", "c", "a"]
    antes = one(events, ANTES_POSTED).data
    assert [(t["from"], t["amount"]) for t in antes["transfers"]] == [
        (f"seat:{TABLE}:b", 10),
        (f"seat:{TABLE}:c", 4),
        (f"seat:{TABLE}:a", 10),
    ]


def test_pay_what_you_have_lets_a_short_player_declare_in_and_lose_his_stack() -> None:
    session = tournament_table("ab", decks=[stack_deck("As Ks", "2c 7h")], ante=10)
    session.do(RemoveEntrant("b"))
    session.do(SeatEntrant("b", 15))
    start(session)  # b antes 10, pot 20: b (5 left) cannot cover it
    session.declare(1, ("b", "in"), ("a", "in"))  # b wins with A-K: a matches the pot
    assert session.stack("b") == 25


def test_sit_out_after_never_sits_a_tournament_player_out() -> None:
    session = tournament_table("abc", decks=[DECK], sit_out_after=1, declare_timeout=30)
    start(session, later(0))
    events = session.do(ExpireDeclare(1), later(30))
    events += session.do(ExpireDeclare(1), later(61))
    assert of_type(events, PLAYER_SAT_OUT) == []
    assert not any(s.sitting_out for s in session.state.seats)
    assert session.state.seat_of("b").timeouts == 1  # timed out, still dealt in
    assert "b" in one(start(session, later(100)), DEAL_STARTED).data["participants"]


# --- the next deal, idempotent --------------------------------------------------------------------


def test_start_deal_after_deal_no_deals_once() -> None:
    session = tournament_table("abcd", decks=[DECK])
    assert session.do(StartDeal(after_deal_no=1)) == []  # deal 1 never was
    assert one(session.do(StartDeal(after_deal_no=0)), DEAL_STARTED).data["deal_no"] == 1
    assert session.do(StartDeal(after_deal_no=0)) == []  # redelivered: nothing
    session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"))  # a forced in (G2-10)
    assert session.do(StartDeal(after_deal_no=0)) == []
    assert one(session.do(StartDeal(after_deal_no=1)), DEAL_STARTED).data["deal_no"] == 2


def test_start_deal_after_deal_no_still_needs_two_players() -> None:
    session = tournament_table("a", decks=[DECK])
    assert session.fails(StartDeal(after_deal_no=0)) == "not_enough_players"


# --- ante levels ------------------------------------------------------------------------------------


def test_set_ante_between_deals_applies_to_the_next_deal() -> None:
    session = tournament_table("abcd", decks=[DECK], ante=5)
    assert session.do(SetAnte(20))[0].data == {"ante": 20}
    assert one(start(session), ANTES_POSTED).data["ante"] == 20


def test_set_ante_during_a_deal_waits_for_the_next_one() -> None:
    session = tournament_table("abcd", decks=[DECK, DECK], ante=5, ante_rule="every_deal")
    start(session)
    session.do(SetAnte(20))
    assert session.state.opts["ante"] == 5  # the live deal keeps its ante
    session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"))  # a forced in (G2-10)
    assert one(start(session), ANTES_POSTED).data["ante"] == 20
    assert session.state.opts["ante"] == 20


def test_set_ante_guards() -> None:
    session = tournament_table("ab")
    assert session.fails(SetAnte(0)) == "invalid_amount"
    assert session.fails(SetAnte("5")) == "invalid_amount"  # type: ignore[arg-type]


# --- moves ------------------------------------------------------------------------------------------


def test_a_move_takes_the_whole_stack_to_the_other_tables_seat() -> None:
    a, b = tournament_table("abc"), tournament_table("xy", table_id="t2")
    out = a.do(MoveEntrantOut("c", "t2"))
    assert out[0].data == {
        "player": "c",
        "to_table": "t2",
        "chips": 1000,
        "transfers": [
            {
                "from": f"seat:{TABLE}:c",
                "to": "seat:t2:c",
                "amount": 1000,
                "unit": UNIT,
                "reason": "tournament_move",
            }
        ],
    }
    moved_in = b.do(MoveEntrantIn("c", TABLE, 1000))
    assert moved_in[0].data == {"player": "c", "seat": 2, "from_table": TABLE, "chips": 1000}
    assert a.state.seat_of("c") is None
    assert b.stack("c") == 1000
    ledger = Ledger()
    for event in [*a.events, *b.events]:
        ledger.post(event)
    assert ledger.balances["seat:t2:c"] == 1000
    assert ledger.balances[f"seat:{TABLE}:c"] == 0


def test_a_move_of_an_empty_stack_moves_no_chips() -> None:
    session = tournament_table("a")
    session.do(MoveEntrantIn("b", "t2", 0))
    assert session.stack("b") == 0
    assert session.do(MoveEntrantOut("b", "t2"))[0].data["transfers"] == []


def test_move_guards() -> None:
    session = tournament_table("ab")
    assert session.fails(MoveEntrantOut("z", "t2")) == "not_seated"
    assert session.fails(MoveEntrantOut("a", TABLE)) == "already_seated"
    assert session.fails(MoveEntrantIn("a", "t2", 10)) == "already_seated"
    assert session.fails(MoveEntrantIn("z", "t2", -1)) == "invalid_amount"


# --- removal, break, finish -------------------------------------------------------------------------


def test_remove_entrant_gives_his_chips_back_to_the_bank() -> None:
    session = tournament_table("ab")
    events = session.do(RemoveEntrant("b"))
    assert transfers(events) == [("seat:b", BANK, 1000)]
    assert session.state.seat_of("b") is None
    assert session.fails(RemoveEntrant("b")) == "not_seated"


def _pot_of_12() -> Session:
    session = tournament_table(
        "abc", decks=[stack_deck("As Ks", "Qd Jd", "2c 7h")], ante=4, declare_mode="simultaneous"
    )
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))  # AO-01: the pot carries
    assert session.state.pot == 12
    return session


def test_d_gen_07_a_break_shares_pot_and_reserve_among_the_seated() -> None:
    session = _pot_of_12()
    session.do(SeatEntrant("d", 100))  # seat 3
    events = session.do(BreakTable())
    assert events[0].data["shares"] == {"b": 3, "c": 3, "d": 3, "a": 3}
    assert transfers(events) == [("pot", f"seat:{p}", 3) for p in "bcda"]
    assert units(events) == {UNIT}
    assert session.state.status == "broken"
    assert session.state.pot == 0


def test_d_gen_01_odd_chips_of_a_break_go_from_the_dealers_left() -> None:
    session = _pot_of_12()
    session.do(RemoveEntrant("c"))
    for p in "def":  # seats 2, 3, 4
        session.do(SeatEntrant(p, 100))
    events = session.do(BreakTable())
    # dealer a (seat 0): clockwise from his left b (1), d (2), e (3), f (4), a: 12 = 2 each + 2
    assert events[0].data["shares"] == {"b": 3, "d": 3, "e": 2, "f": 2, "a": 2}


def test_a_broken_table_deals_no_more_but_lets_its_players_go() -> None:
    session = _pot_of_12()
    session.do(BreakTable())
    assert session.fails(StartDeal(None, SEED)) == "table_closed"
    assert session.do(StartDeal(after_deal_no=1)) == []
    assert session.fails(BreakTable()) == "table_closed"
    assert session.fails(SeatEntrant("z", 10)) == "table_closed"
    session.do(MoveEntrantOut("a", "t2"))
    session.do(RemoveEntrant("b"))
    assert session.state.status == "broken"
    session.do(MoveEntrantOut("c", "t2"))
    assert session.state.status == "closed"
    assert session.fails(RemoveEntrant("c")) == "table_closed"


def test_an_empty_table_breaks_to_the_bank() -> None:
    session = _pot_of_12()
    for p in "abc":
        session.do(MoveEntrantOut(p, "t2"))
    events = session.do(BreakTable())
    assert transfers(events) == [("pot", BANK, 12)]
    assert session.state.status == "closed"


def test_finish_gives_pot_and_reserve_to_the_winner_then_everything_to_the_bank() -> None:
    session = _pot_of_12()
    session.do(RemoveEntrant("c"))
    stacks = {p: session.stack(p) for p in "ab"}
    events = session.do(FinishTable("a"))
    assert events[0].data["winner"] == "a"
    assert transfers(events) == [
        ("pot", "seat:a", 12),
        ("seat:b", BANK, stacks["b"]),
        ("seat:a", BANK, stacks["a"] + 12),
    ]
    assert session.state.status == "closed"
    assert session.state.seats == ()
    assert session.state.pot == 0


def test_finish_with_the_winner_elsewhere_sends_the_pot_to_the_bank() -> None:
    session = _pot_of_12()
    session.do(RemoveEntrant("c"))
    events = session.do(FinishTable("zed"))
    assert transfers(events)[0] == ("pot", BANK, 12)
    assert session.fails(FinishTable("zed")) == "table_closed"


# --- folds ------------------------------------------------------------------------------------------


def test_snapshots_and_json_fold_back_with_a_pending_ante() -> None:
    session = tournament_table("abcd", decks=[DECK, DECK], ante=5)
    start(session)
    session.do(SetAnte(9))
    snapshot = state_to_json(session.state)
    assert state_from_json(snapshot) == session.state
    position = len(session.events)
    session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"))  # a forced in (G2-10)
    session.do(MoveEntrantOut("d", "t2"))
    session.do(BreakTable())
    assert_folds_back(session, [(position, snapshot)])


def test_a_cash_tables_snapshot_is_unchanged() -> None:
    assert "tournament_id" not in state_to_json(table("ab").state)


# --- conservation per unit, over random sessions of two tables ---------------------------------------


class _Tables:
    """Two tables of one tournament, every event posted to one shared Ledger."""

    def __init__(self, options: dict[str, object]) -> None:
        self.sessions = {
            name: tournament_table(players, table_id=name, chips=100, **options)
            for name, players in (("t1", "abc"), ("t2", "def"))
        }
        self.ledger = Ledger()
        for session in self.sessions.values():
            for event in session.events:
                self.ledger.post(event)
        self.clock = 0

    def now(self) -> datetime:
        self.clock += 1
        return later(self.clock)

    def run(self, name: str, command: object) -> bool:
        session = self.sessions[name]
        try:
            events = session.do(command, self.now())  # type: ignore[arg-type]
        except DomainError:
            return False
        for event in events:
            self.ledger.post(event)
        self.check()
        return True

    def move(self, source: str, player: str) -> None:
        """MoveEntrantOut and MoveEntrantIn together or not at all (one transaction in the
        service): the arrival is decided first, on the state before the departure."""
        target = "t2" if source == "t1" else "t1"
        chips = self.sessions[source].stack(player)
        try:
            decide(self.sessions[target].state, MoveEntrantIn(player, source, chips), T0)
            decide(self.sessions[source].state, MoveEntrantOut(player, target), T0)
        except DomainError:
            return
        assert self.run(source, MoveEntrantOut(player, target))
        assert self.run(target, MoveEntrantIn(player, source, chips))

    def check(self) -> None:
        balances = self.ledger.balances
        for name, session in self.sessions.items():
            state = session.state
            assert balances[f"pot:{name}"] == state.pot
            assert balances[f"reserve:{name}"] == state.reserve
            for seat in state.seats:
                assert balances[f"seat:{name}:{seat.player}"] == seat.stack >= 0
        for account, amount in balances.items():
            assert amount >= 0 or account == BANK, (account, amount)
            assert self.ledger.units.get(account, UNIT) == UNIT
        assert -balances[BANK] == sum(a for name, a in balances.items() if name != BANK)


PLAYERS = "abcdefghi"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    ante=st.integers(1, 30),
    mode=st.sampled_from(["sequential", "simultaneous"]),
    ante_rule=st.sampled_from(["pot_empty", "every_deal"]),
)
def test_conservation_per_unit_at_every_event_of_two_tournament_tables(
    data: st.DataObject, ante: int, mode: str, ante_rule: str
) -> None:
    tables = _Tables({"ante": ante, "declare_mode": mode, "ante_rule": ante_rule, "seats": 5})
    for _ in range(data.draw(st.integers(5, 60))):
        name = data.draw(st.sampled_from(["t1", "t2"]))
        session = tables.sessions[name]
        seated = [s.player for s in session.state.seats]
        op = data.draw(
            st.sampled_from(
                [
                    "seat",
                    "seat",
                    "move",
                    "start",
                    "start",
                    "declare",
                    "declare",
                    "declare",
                    "expire",
                    "ante",
                    "remove",
                    "break",
                ]
            )
        )
        if op == "seat":
            player = data.draw(st.sampled_from(PLAYERS))
            if not any(s.state.seat_of(player) for s in tables.sessions.values()):
                tables.run(name, SeatEntrant(player, data.draw(st.integers(1, 200))))
        elif op == "move" and seated:
            tables.move(name, data.draw(st.sampled_from(seated)))
        elif op == "start":
            tables.run(name, StartDeal(after_deal_no=session.state.deal_no, seed=SEED))
        elif op == "declare":
            for _ in range(8):  # declares until the deal ends (or a refusal)
                live = session.state.live
                if (
                    live is None
                    or not live.awaiting
                    or not tables.run(
                        name,
                        Declare(live.awaiting[0], live.deal_no, data.draw(st.sampled_from(["in", "out"]))),
                    )
                ):
                    break
        elif op == "expire" and session.state.live is not None:
            tables.clock += 100
            tables.run(name, ExpireDeclare(session.state.deal_no))
        elif op == "ante":
            tables.run(name, SetAnte(data.draw(st.integers(1, 50))))
        elif op == "remove" and seated:
            tables.run(name, RemoveEntrant(data.draw(st.sampled_from(seated))))
        elif op == "break" and data.draw(st.integers(0, 5)) == 0:
            tables.run(name, BreakTable())
    for session in tables.sessions.values():
        assert_folds_back(session, [(0, state_to_json(initial()))])
    for name in ("t1", "t2"):
        if tables.sessions[name].state.live is None:
            tables.run(name, FinishTable(None))
    if all(s.state.status == "closed" for s in tables.sessions.values()):
        assert all(amount == 0 for amount in tables.ledger.balances.values())
