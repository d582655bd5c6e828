"""Tournament tables through the service (/work/notes/TOURNAMENT_INTERFACE.md): the
tournament's unit in the ledger (DESIGN §2.4), a move between two tables in one transaction,
the idempotent next deal, ante levels from the next deal, and the refusals."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.db import transaction
from django.test import override_settings

from ledger.accounts import chipbank_account, tournament_unit
from ledger.errors import DomainError
from ledger.money import balance, balances, check_conservation, seat_account
from ledger.projections import rebuild_all
from ledger.store import read_stream
from ledger.verify import verify_ledger
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider import errors as rules
from tables.models import SeatView, TableView
from tables.state import load_table, table_stream
from tests.tables.conftest import stack_deck
from tests.tables.test_rebuild import COMPARED, rows

pytestmark = pytest.mark.django_db

REFUSALS = (DomainError, rules.DomainError)
TID = str(uuid.uuid4())
UNIT, BANK = tournament_unit(TID), chipbank_account(TID)
DECK = stack_deck("As Ks", "Qd Jd", "2c 7h")


def problem_code(fn: Callable[[], object]) -> str:
    with pytest.raises(REFUSALS) as caught:
        fn()
    return caught.value.code


def tourney(command: object, table: str) -> service.CommandResult:
    return service.tournament_command(table_id=table, command=command)  # type: ignore[arg-type]


def open_tournament_table(
    players: str = "", *, chips: int = 1000, options: dict | None = None, decks: list[list[str]] | None = None
) -> str:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=decks is not None):
        table = service.table_open(
            variant="guts2", options={"ante": 10, **(options or {})}, stacked_decks=decks, tournament_id=TID
        ).table_id
    for player in players:
        tourney(cmd.SeatEntrant(player, chips), table)
    return table


def test_a_tournament_table_shows_its_tournament_and_unit() -> None:
    table = open_tournament_table("ab")
    row = TableView.objects.get(table_id=table)
    assert (str(row.tournament_id), row.unit) == (TID, UNIT)
    state = load_table(table).state
    assert (state.tournament_id, state.unit, state.opts["stack_policy"]) == (TID, UNIT, "pay_what_you_have")
    cash = service.table_open(variant="guts2").table_id
    cash_row = TableView.objects.get(table_id=cash)
    assert (cash_row.tournament_id, cash_row.unit) == (None, "chips")


def test_entrants_take_the_tournaments_chips_never_cash() -> None:
    table = open_tournament_table("ab", chips=700)
    assert balance(seat_account(table, "a"), UNIT) == 700
    assert balance(seat_account(table, "a")) == 0  # no cash chip at the table
    assert balance(BANK, UNIT) == -1400  # the issuer (may go negative)
    assert check_conservation() == []
    assert sum(balances(UNIT).values()) == 0


def test_a_deal_at_a_tournament_table_moves_only_tournament_chips() -> None:
    table = open_tournament_table("abc", decks=[DECK])
    service.start_next_deal(table_id=table, after_deal_no=0)
    for player, choice in (("b", "in"), ("c", "in"), ("a", "out")):
        service.table_command(table_id=table, command=cmd.Declare(player, 1, choice))
    units = {t["unit"] for e in read_stream(table_stream(table)) for t in e.data.get("transfers", ())}
    assert units == {UNIT}
    assert balance(seat_account(table, "b"), UNIT) == 1020  # antes 30, c matched 30
    assert check_conservation() == []


def test_a_move_between_two_tables_in_one_transaction() -> None:
    one, two = open_tournament_table("abc"), open_tournament_table("xy")
    with transaction.atomic():
        out = tourney(cmd.MoveEntrantOut("c", two), one)
        moved = tourney(cmd.MoveEntrantIn("c", one, out.events[0].data["chips"]), two)
    assert [e.type for e in out.events] == ["EntrantMovedOut"]
    assert [e.type for e in moved.events] == ["EntrantMovedIn"]
    assert (balance(seat_account(one, "c"), UNIT), balance(seat_account(two, "c"), UNIT)) == (0, 1000)
    assert load_table(two).state.stack_of("c") == 1000
    assert load_table(one).state.seat_of("c") is None
    assert SeatView.objects.get(table_id=one, player="c").status == "left"
    assert SeatView.objects.get(table_id=two, player="c").stack == 1000
    assert (TableView.objects.get(table_id=one).seated, TableView.objects.get(table_id=two).seated) == (2, 3)
    assert check_conservation() == []


def test_a_move_whose_arrival_is_refused_rolls_back_the_departure() -> None:
    one, two = open_tournament_table("abc"), open_tournament_table("xy", options={"seats": 2})

    def move() -> None:
        with transaction.atomic():
            tourney(cmd.MoveEntrantOut("c", two), one)
            tourney(cmd.MoveEntrantIn("c", one, 1000), two)

    assert problem_code(move) == "table_full"
    assert load_table(one).state.stack_of("c") == 1000
    assert balance(seat_account(one, "c"), UNIT) == 1000
    assert balance(seat_account(two, "c"), UNIT) == 0


def test_start_next_deal_is_idempotent_under_duplicate_calls() -> None:
    table = open_tournament_table("abc", decks=[DECK])
    first = service.start_next_deal(table_id=table, after_deal_no=0)
    again = service.start_next_deal(table_id=table, after_deal_no=0)
    assert first.events[0].type == "DealStarted"
    assert again.events == []
    assert again.version == first.version
    assert service.start_next_deal(table_id=table, after_deal_no=1).events == []  # deal 1 is live
    started = [e for e in read_stream(table_stream(table)) if e.type == "DealStarted"]
    assert len(started) == 1


def test_set_ante_applies_from_the_next_deal() -> None:
    table = open_tournament_table("abc", decks=[DECK], options={"ante_rule": "every_deal"})
    service.start_next_deal(table_id=table, after_deal_no=0)
    assert tourney(cmd.SetAnte(25), table).events[0].data == {"ante": 25}
    assert load_table(table).state.opts["ante"] == 10  # the live deal keeps its ante
    for player in "bc":
        service.table_command(table_id=table, command=cmd.Declare(player, 1, "out"))
    second = service.start_next_deal(table_id=table, after_deal_no=1)
    antes = next(e for e in second.events if e.type == "AntesPosted")
    assert antes.data["ante"] == 25
    assert {t["amount"] for t in antes.data["transfers"]} == {25}


def test_cash_commands_at_a_tournament_table_are_409_tournament_table() -> None:
    table = open_tournament_table("ab")
    for command in (
        cmd.SitDown("c", 100),
        cmd.TopUp("a", 10),
        cmd.Leave("a"),
        cmd.SitOut("a"),
        cmd.CloseTable(),
        cmd.StartDeal(by_player_id="a"),
    ):
        assert (
            problem_code(lambda c=command: service.table_command(table_id=table, command=c))
            == "tournament_table"
        )


def test_tournament_commands_at_a_cash_table_are_409_not_a_tournament_table() -> None:
    table = service.table_open(variant="guts2").table_id
    assert problem_code(lambda: tourney(cmd.SeatEntrant("a", 100), table)) == "not_a_tournament_table"
    assert (
        problem_code(lambda: service.start_next_deal(table_id=table, after_deal_no=0)) == "not_enough_players"
    )  # a cash table may use it too


def test_tournament_commands_refuse_a_live_deal() -> None:
    table = open_tournament_table("abc", decks=[DECK])
    service.start_next_deal(table_id=table, after_deal_no=0)
    assert problem_code(lambda: tourney(cmd.RemoveEntrant("a"), table)) == "deal_in_progress"


def test_break_and_finish_return_every_chip_to_the_bank() -> None:
    table = open_tournament_table("abc", decks=[DECK], options={"declare_mode": "simultaneous"})
    service.start_next_deal(table_id=table, after_deal_no=0)
    for player in "abc":
        service.table_command(table_id=table, command=cmd.Declare(player, 1, "out"))  # AO-01
    assert load_table(table).state.pot == 30
    broken = tourney(cmd.BreakTable(), table)
    assert broken.events[0].data["shares"] == {"b": 10, "c": 10, "a": 10}
    assert TableView.objects.get(table_id=table).status == "broken"
    tourney(cmd.FinishTable("a"), table)
    assert TableView.objects.get(table_id=table).status == "closed"
    assert all(amount == 0 for amount in balances(UNIT).values())
    assert check_conservation() == []


def test_tournament_command_takes_only_tournament_commands() -> None:
    table = open_tournament_table("ab")
    with pytest.raises(TypeError):
        tourney(cmd.Declare("a", 1, "in"), table)
    with pytest.raises(ValueError):
        service.table_command(table_id=table, command=cmd.StartDeal(after_deal_no=0))


def test_rebuild_equals_live_and_the_audit_verifies_each_unit() -> None:
    one, two = open_tournament_table("abc", decks=[DECK]), open_tournament_table("xy")
    service.start_next_deal(table_id=one, after_deal_no=0)
    for player, choice in (("b", "in"), ("c", "in"), ("a", "out")):
        service.table_command(table_id=one, command=cmd.Declare(player, 1, choice))
    with transaction.atomic():
        out = tourney(cmd.MoveEntrantOut("b", two), one)
        tourney(cmd.MoveEntrantIn("b", one, out.events[0].data["chips"]), two)
    tourney(cmd.SetAnte(20), one)
    tourney(cmd.BreakTable(), one)
    live = {model: rows(model, key) for model, key in COMPARED}
    rebuild_all()
    for model, key in COMPARED:
        assert rows(model, key) == live[model], model.__name__
    report = verify_ledger()
    assert report.ok, report.to_json()
    assert UNIT in report.units
