"""The application service: load, decide, append; bankroll legs; snapshots; hooks (DESIGN §2.5)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from ledger.errors import DomainError
from ledger.models import Event
from ledger.money import balance, check_conservation, player_account, seat_account
from ledger.selectors import player_stream
from ledger.store import StoredEvent, read_stream, stream_version
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider import errors as rules
from tables.engine.decider.events import parse
from tables.engine.decider.evolve import fold
from tables.engine.decider.snapshot import state_to_json
from tables.errors import StaleVersion
from tables.models import DealPlayer, DealSummary, SeatView, TableSnapshot, TableView
from tables.state import cache, load_table, load_table_at, table_stream
from tests.tables.conftest import stack_deck

pytestmark = pytest.mark.django_db

OPTS = {"ante": 10, "min_buy_in": 100}


REFUSALS = (DomainError, rules.DomainError)


def run(table: str, command: service.TableCommand, **options: object) -> service.CommandResult:
    return service.table_command(table_id=table, command=command, **options)


def problem_code(fn: Callable[[], object]) -> str:
    with pytest.raises(REFUSALS) as caught:
        fn()
    return caught.value.code


def open_with(
    players: list[int],
    *,
    options: dict | None = None,
    buy_in: int = 500,
    decks: list[list[str]] | None = None,
) -> str:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=decks is not None):
        table = service.table_open(
            variant="guts2", options={**OPTS, **(options or {})}, stacked_decks=decks
        ).table_id
    for player in players:
        run(table, cmd.SitDown(str(player), buy_in))
    return table


def test_sit_down_moves_the_buy_in_from_the_bankroll_and_marks_the_player_stream(funded_player):
    alice = funded_player(1000)
    table = open_with([], buy_in=0)
    before = stream_version(player_stream(alice))
    result = run(table, cmd.SitDown(str(alice), 300))
    assert [e.type for e in result.events] == ["PlayerSeated"]
    assert balance(player_account(alice)) == 700
    assert balance(seat_account(table, alice)) == 300
    marker = read_stream(player_stream(alice), from_version=before + 1)
    assert [(e.type, e.data["amount"]) for e in marker] == [("TableBankrollMoved", -300)]
    assert marker[0].data.get("transfers") is None
    assert SeatView.objects.get(table_id=table, player=str(alice)).stack == 300


def test_buy_in_above_the_bankroll_is_insufficient_funds_and_appends_nothing(funded_player):
    alice = funded_player(200)
    table = open_with([])
    version = stream_version(table_stream(table))
    assert problem_code(lambda: run(table, cmd.SitDown(str(alice), 300))) == "insufficient_funds"
    assert stream_version(table_stream(table)) == version
    assert balance(player_account(alice)) == 200


def test_leave_cashes_out_to_the_bankroll(funded_player):
    alice, bob = funded_player(1000), funded_player(1000)
    table = open_with([alice, bob], buy_in=400)
    run(table, cmd.Leave(str(alice)))
    assert balance(player_account(alice)) == 1000
    assert SeatView.objects.get(table_id=table, player=str(alice)).status == "left"
    assert check_conservation() == []


def test_a_full_deal_updates_every_projection(funded_player):  # G2-11 uncontested, G2-05 antes
    a, b, c = (funded_player() for _ in range(3))
    deck = stack_deck("As Ks", "2c 7d", "3h 9s")
    table = open_with([a, b, c], decks=[deck])
    started = run(table, cmd.StartDeal(by_player_id=str(a)))
    view = TableView.objects.get(table_id=table)
    assert (view.phase, view.pot, view.deal_no) == ("declare", 30, 1)
    assert view.deadline is not None
    assert view.turn == [started.state.deal.awaiting[0]]
    order = started.state.deal.order
    for player, choice in zip(order, ["in", "out", "out"], strict=True):
        result = run(table, cmd.Declare(player, 1, choice))
    assert result.events[-1].type in ("DealEnded", "GameEnded")
    view.refresh_from_db()
    assert (view.phase, view.pot, view.reserve, view.deadline) == ("between_deals", 0, 0, None)
    summary = DealSummary.objects.get(table_id=table, deal_no=1)
    assert (summary.over, summary.outcome, summary.winners) == (True, "uncontested", [order[0]])
    assert (summary.pot_before, summary.pot_after) == (0, 0)
    assert summary.declares == {order[0]: "in", order[1]: "out", order[2]: "out"}
    assert set(DealPlayer.objects.filter(table_id=table).values_list("player", flat=True)) == set(order)
    assert TableSnapshot.objects.filter(table_id=table, version=result.version).exists()
    assert balance(seat_account(table, order[0])) == 520
    assert check_conservation() == []


def test_refusals_are_domain_errors_with_codes_and_append_nothing(funded_player):
    a, b = funded_player(), funded_player()
    table = open_with([a, b])
    version = stream_version(table_stream(table))
    assert problem_code(lambda: run(table, cmd.Declare(str(a), 1, "in"))) == "no_deal"
    assert problem_code(lambda: run(table, cmd.SitDown(str(a), 100))) == "already_seated"
    assert problem_code(lambda: run(table, cmd.TopUp(str(a), -5))) == "invalid_amount"
    assert problem_code(lambda: run("not-a-uuid", cmd.StartDeal())) == "unknown_table"
    assert problem_code(lambda: service.table_open(variant="guts9")) == "unknown_variant"
    with override_settings(GUTS_ALLOW_STACKED_DECKS=False):
        assert (
            problem_code(lambda: service.table_open(variant="guts2", stacked_decks=[["As"]]))
            == "stacked_decks_not_allowed"
        )
    assert stream_version(table_stream(table)) == version


def test_if_match_mismatch_is_stale_version(funded_player):
    a = funded_player()
    table = open_with([])
    version = stream_version(table_stream(table))
    with pytest.raises(StaleVersion) as caught:
        run(table, cmd.SitDown(str(a), 100), expected_version=version - 1)
    assert (caught.value.code, caught.value.detail) == ("stale_version", {"current_version": version})
    result = run(table, cmd.SitDown(str(a), 100), expected_version=version)
    assert result.version == version + 1


def test_the_result_is_the_deciders_state_not_the_projectors_cache(funded_player, monkeypatch):
    players = [funded_player() for _ in range(3)]
    table = open_with(players)
    monkeypatch.setattr(cache, "put", lambda *_: None)  # nothing the projector folds is kept
    started = run(table, cmd.StartDeal())
    declared = run(table, cmd.Declare(started.state.deal.awaiting[0], 1, "in"))
    logged = fold(parse(e.type, e.data) for e in read_stream(table_stream(table)))
    assert state_to_json(declared.state) == state_to_json(logged)
    assert declared.version == stream_version(table_stream(table))


def test_table_command_takes_only_a_clients_commands_and_draws_the_decks(funded_player):  # §2.7
    table = open_with([funded_player(), funded_player()])
    with pytest.raises(TypeError):
        run(table, cmd.ExpireDeclare(1))  # the timer's: deal_expire
    with pytest.raises(TypeError):
        run(table, cmd.OpenTable(table_id=table, variant="guts2"))
    with pytest.raises(ValueError, match="decks"):
        run(table, cmd.StartDeal(seed="00" * 32))
    started = run(table, cmd.StartDeal())
    [dealt] = [e for e in started.events if e.type == "DealStarted"]
    assert (dealt.data["deck_schema"], dealt.data["seed"]) == (2, None)  # docs/deck.md §10
    first = Event.objects.get(stream=f"table-{table}", type="DeckCommitted", data__deal_no=1)
    assert first.version == 2  # committed as the table opened
    [following] = [e for e in started.events if e.type == "DeckCommitted"]
    assert following.data["deal_no"] == 2  # the next deal's, before any card
    assert dealt.data["root"] == first.data["root"]
    assert set(first.data["salts"]).isdisjoint(following.data["salts"])


def test_snapshot_plus_tail_equals_the_full_fold(funded_player):  # DESIGN §2.5
    players = [funded_player() for _ in range(3)]
    table = open_with(players)
    for deal_no in range(1, 5):
        state = run(table, cmd.StartDeal()).state
        for player in state.deal.order:
            if load_table(table).state.live is None:
                break
            run(table, cmd.Declare(player, deal_no, "in"))
    events = read_stream(table_stream(table))
    full = fold(parse(e.type, e.data) for e in events)
    cache.clear()
    assert TableSnapshot.objects.filter(table_id=table).count() >= 4
    assert state_to_json(load_table(table).state) == state_to_json(full)
    middle = events[len(events) // 2].version
    cache.clear()
    assert state_to_json(load_table_at(table, middle).state) == state_to_json(
        fold(parse(e.type, e.data) for e in events[:middle])
    )


def test_a_cached_state_of_a_rolled_back_append_is_never_served(funded_player):
    a = funded_player()
    table = open_with([])

    def sit_then_roll_back() -> None:
        with transaction.atomic():
            run(table, cmd.SitDown(str(a), 100))
            raise RuntimeError("roll back")

    with pytest.raises(RuntimeError):
        sit_then_roll_back()
    # the cache saw version 3 (seated); the log does not have it (2: the first deal's deck)
    loaded = load_table(table)
    assert (loaded.version, loaded.state.seats) == (2, ())
    run(table, cmd.SitDown(str(a), 150))
    assert load_table(table).state.stack_of(str(a)) == 150


def test_expire_is_a_no_op_until_the_deadline(funded_player):  # DESIGN §2.8
    a, b = funded_player(), funded_player()
    table = open_with([a, b])
    started = run(table, cmd.StartDeal())
    deadline = started.state.deal.deadline
    assert service.deal_expire(table_id=table, deal_no=1).events == []
    late = timezone.now() + timedelta(seconds=OPTS.get("declare_timeout", 30) + 5)
    expired = service.deal_expire(table_id=table, deal_no=1, now=late)
    assert deadline is not None
    assert expired.events[0].type == "DeclareTimedOut"
    assert service.deal_expire(table_id=table, deal_no=99, now=late).events == []


def test_after_commit_hooks_run_with_the_stored_events(funded_player, django_capture_on_commit_callbacks):
    seen: list[tuple[str, list[StoredEvent]]] = []

    def hook(table_id: str, events: list[StoredEvent]) -> None:
        seen.append((table_id, events))

    service.register_after_commit(hook)
    try:
        a, b = funded_player(), funded_player()
        table = open_with([a, b])
        with django_capture_on_commit_callbacks(execute=True):
            result = run(table, cmd.StartDeal())
        assert seen == [(table, result.events)]
        assert any(e.type == "DeclareOpened" for e in seen[0][1])
        with django_capture_on_commit_callbacks(execute=True):  # nothing appended, no call
            service.deal_expire(table_id=table, deal_no=1)
        assert len(seen) == 1
    finally:
        service.unregister_after_commit(hook)


def test_close_shares_the_pot_and_cashes_everyone_out(funded_player):  # D-GEN-07
    a, b = funded_player(1000), funded_player(1000)
    table = open_with([a, b])
    run(table, cmd.StartDeal())
    with pytest.raises(REFUSALS):
        run(table, cmd.CloseTable())
    while (live := load_table(table).state.live) is not None:  # G2-10: the dealer is forced in
        run(table, cmd.Declare(live.awaiting[0], 1, "out"))
    run(table, cmd.CloseTable())
    assert balance(player_account(a)) + balance(player_account(b)) == 2000
    assert TableView.objects.get(table_id=table).status == "closed"
    assert check_conservation() == []


def test_allow_debt_lets_a_seat_go_negative_and_leave_settles_it(funded_player):  # D-GEN-06
    players = [funded_player(1000) for _ in range(3)]
    table = open_with(
        players,
        options={"ante": 40, "min_buy_in": 40, "stack_policy": "allow_debt"},
        buy_in=100,
        decks=[stack_deck("As Ks", "Qd Jd", "2c 7h")],
    )
    order = run(table, cmd.StartDeal()).state.deal.order  # antes: each stack 60, pot 120
    run(table, cmd.Declare(order[0], 1, "in"))
    run(table, cmd.Declare(order[1], 1, "in"))
    run(table, cmd.Declare(order[2], 1, "out"))
    loser = order[1]  # Qd Jd matches the pot of 120
    assert balance(seat_account(table, loser)) == -60
    assert check_conservation() == []
    run(table, cmd.Leave(loser))
    assert balance(player_account(loser)) == 1000 - 100 - 60
    assert check_conservation() == []


def test_without_allow_debt_a_seat_never_goes_negative(funded_player):  # D-GEN-06 table stakes
    players = [funded_player(1000) for _ in range(2)]
    table = open_with(players, options={"ante": 40, "min_buy_in": 40}, buy_in=100)
    order = run(table, cmd.StartDeal()).state.deal.order  # stacks 60, pot 80
    assert problem_code(lambda: run(table, cmd.Declare(order[0], 1, "in"))) == "insufficient_stack"
