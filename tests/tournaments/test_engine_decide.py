"""The tournament decider, given events / when command / then events: no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tables.engine.decider.errors import DomainError as TableRuleError
from tables.engine.deck import commitment, shuffle
from tournaments.engine import commands as cmd
from tournaments.engine import events as ev
from tournaments.engine.balance import TableLoad, plan
from tournaments.engine.decide import decide, due_deals, tables_for_start
from tournaments.engine.errors import DomainError
from tournaments.engine.evolve import fold
from tournaments.engine.state import TournamentState

T0 = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
SEED = "5eed" * 16


def fields(**changes: Any) -> dict[str, Any]:
    base = {
        "name": "Sunday",
        "variant": "guts2",
        "options": {},
        "buy_in": 100,
        "fee": 10,
        "starting_chips": 1000,
        "seats_per_table": 6,
        "min_entrants": 4,
        "max_entrants": 20,
        "start_at": "2026-12-01T01:00:00Z",
        "levels": [{"ante": 5, "minutes": 10}, {"ante": 10, "minutes": 10}, {"ante": 20, "minutes": 10}],
        "late_registration_level": 1,
        "payouts": [50, 30, 20],
        "pause_seconds": 5,
    }
    return {**base, **changes}


def run(state: TournamentState, command: cmd.Command, now: datetime = T0) -> TournamentState:
    return fold(decide(state, command, now), state)


def created(**changes: Any) -> TournamentState:
    return run(TournamentState(), cmd.CreateTournament("t1", fields(**changes), SEED))


def registered(n: int, **changes: Any) -> TournamentState:
    state = created(**changes)
    for player in range(1, n + 1):
        state = run(state, cmd.Register(str(player)))
    return state


def started(n: int, tables: tuple[str, ...] = ("A", "B"), **changes: Any) -> TournamentState:
    return run(registered(n, **changes), cmd.Start(tables))


def test_creation_records_the_config_and_the_seating_commitment_not_the_seed_in_clear() -> None:
    [event] = decide(TournamentState(), cmd.CreateTournament("t1", fields(), SEED), T0)
    assert isinstance(event, ev.TournamentCreated)
    assert event.seating_commitment == commitment(SEED)
    assert event.config["options"]["seats"] == 6
    assert event.config["options"]["ante"] == 5
    assert event.config["options"]["stack_policy"] == "pay_what_you_have"  # D-GEN-06


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"payouts": [50, 30]}, "invalid_payouts"),
        ({"payouts": [50, 30, 10, 5, 5]}, "invalid_payouts"),  # more paid places than min_entrants
        ({"payouts": [50.0, 50]}, "invalid_payouts"),
        ({"levels": []}, "invalid_tournament"),
        ({"levels": [{"ante": 0, "minutes": 5}]}, "invalid_tournament"),
        ({"min_entrants": 1}, "invalid_tournament"),
        ({"max_entrants": 3}, "invalid_tournament"),
        ({"late_registration_level": 4}, "invalid_tournament"),
        ({"start_at": "tomorrow"}, "invalid_tournament"),
        ({"start_at": "2026-12-01T01:00:00"}, "invalid_tournament"),
        ({"options": {"seats": 4}}, "invalid_tournament"),
        ({"buy_in": -1}, "invalid_tournament"),
        ({"name": ""}, "invalid_tournament"),
    ],
)
def test_bad_configs_are_refused_with_a_code(changes: dict[str, Any], code: str) -> None:
    with pytest.raises(DomainError) as refused:
        decide(TournamentState(), cmd.CreateTournament("t1", fields(**changes), SEED), T0)
    assert refused.value.code == code


def test_seats_per_table_beyond_the_variants_capacity_is_invalid_option() -> None:  # D-GEN-02
    with pytest.raises(TableRuleError) as refused:
        created(seats_per_table=30)
    assert refused.value.code == "invalid_option"
    assert refused.value.detail["option"] == "seats"
    with pytest.raises(TableRuleError) as unknown:
        created(variant="guts9")
    assert unknown.value.code == "unknown_variant"


def test_registration_moves_the_buy_in_to_the_prize_pool_and_the_fee_to_the_house() -> None:
    [event] = decide(created(), cmd.Register("7"), T0)
    assert event.data["transfers"] == [
        {
            "from": "player:7",
            "to": "prizepool:t1",
            "amount": 100,
            "unit": "chips",
            "reason": "tournament_buy_in",
        },
        {"from": "player:7", "to": "house", "amount": 10, "unit": "chips", "reason": "tournament_fee"},
    ]


def test_register_twice_unregister_unknown_full() -> None:
    state = registered(4, max_entrants=4)
    for command, code in [
        (cmd.Register("1"), "already_registered"),
        (cmd.Register("9"), "tournament_full"),
        (cmd.Unregister("9"), "not_registered"),
    ]:
        with pytest.raises(DomainError) as refused:
            decide(state, command, T0)
        assert refused.value.code == code


def test_unregister_refunds_both_and_cancel_refunds_everyone() -> None:
    state = registered(3)
    [gone] = decide(state, cmd.Unregister("2"), T0)
    assert [(t["from"], t["to"], t["amount"]) for t in gone.data["transfers"]] == [
        ("prizepool:t1", "player:2", 100),
        ("house", "player:2", 10),
    ]
    [cancelled] = decide(state, cmd.Cancel(), T0)
    assert len(cancelled.data["transfers"]) == 6
    assert sum(t["amount"] for t in cancelled.data["transfers"]) == 3 * 110


def test_the_start_seats_by_the_revealed_seed_and_schedules_the_first_deals() -> None:
    state = registered(12)
    assert tables_for_start(state) == 2
    started_event, *scheduled = decide(state, cmd.Start(("A", "B")), T0)
    assert isinstance(started_event, ev.TournamentStarted)
    assert started_event.seed == SEED
    from tables.engine.deck import seed_key

    assert started_event.order == shuffle([str(p) for p in range(1, 13)], seed_key(SEED))
    order = started_event.order
    assert [t["players"] for t in started_event.tables] == [order[0::2], order[1::2]]
    assert [(s.table_id, s.after_deal_no) for s in scheduled] == [("A", 0), ("B", 0)]
    assert due_deals(fold([started_event, *scheduled], state), T0) == [("A", 0), ("B", 0)]


def test_start_below_the_minimum_refuses_an_admin_and_cancels_on_schedule() -> None:
    state = registered(3)
    with pytest.raises(DomainError) as refused:
        decide(state, cmd.Start(()), T0)
    assert refused.value.code == "not_enough_entrants"
    [cancelled] = decide(state, cmd.Start((), by_schedule=True), T0)
    assert isinstance(cancelled, ev.TournamentCancelled)
    assert cancelled.reason == "not_enough_entrants"


def test_unregister_after_the_start_and_late_registration_after_its_level() -> None:
    state = started(12)
    with pytest.raises(DomainError) as refused:
        decide(state, cmd.Unregister("1"), T0)
    assert refused.value.code == "registration_closed"
    [late] = decide(state, cmd.Register("13"), T0 + timedelta(minutes=9))
    assert late.data["late"] is True
    with pytest.raises(DomainError) as closed:
        decide(state, cmd.Register("13"), T0 + timedelta(minutes=10))
    assert closed.value.code == "registration_closed"


def seen(
    state: TournamentState,
    table: str,
    deal_no: int,
    *,
    idle: bool = True,
    stacks: dict[str, int] | None = None,
    start: dict[str, int] | None = None,
) -> cmd.TableSeen:
    members = state.members(table)
    now = dict.fromkeys(members, 1000) | (stacks or {})
    return cmd.TableSeen(
        table,
        idle,
        deal_no,
        now,
        dict.fromkeys(members, 1000) | (start or {}),
        tuple(members),
        tuple(members),
    )


def test_reconcile_is_idempotent_and_checkpoints_each_deal() -> None:
    state = started(12)
    tables = (seen(state, "A", 1), seen(state, "B", 1, idle=False))
    events = decide(state, cmd.Reconcile(tables), T0)
    assert [type(e).__name__ for e in events] == ["DealProcessed", "DealScheduled"]
    assert decide(fold(events, state), cmd.Reconcile(tables), T0) == []


def test_two_eliminations_in_one_deal_share_places_by_starting_stacks_and_levels_advance() -> None:
    state = started(12)
    a = state.members("A")
    tables = (
        seen(state, "A", 3, stacks={a[0]: 0, a[1]: 0}, start={a[0]: 400, a[1]: 900}),
        seen(state, "B", 2, idle=False),
    )
    events = decide(state, cmd.Reconcile(tables), T0 + timedelta(minutes=21))
    names = [type(e).__name__ for e in events]
    assert names[:4] == ["LevelStarted", "LevelStarted", "DealProcessed", "EntrantsEliminated"]
    [out] = [e for e in events if isinstance(e, ev.EntrantsEliminated)]
    assert [(p["player"], p["place"]) for p in out.placings] == [(a[1], 11), (a[0], 12)]
    assert ev.AnteSet("A", 20) in events
    # A has 4, B 6: B is mid-deal, so A is held (its first schedule withdrawn) rather than dealt
    assert events[-1] == ev.DealHeld("A")
    assert not any(isinstance(e, ev.DealScheduled) for e in events)


def test_balancing_moves_one_player_when_both_tables_are_between_deals() -> None:
    state = started(12)
    a = state.members("A")
    tables = (seen(state, "A", 3, stacks={a[0]: 0, a[1]: 0}), seen(state, "B", 2))
    events = decide(state, cmd.Reconcile(tables), T0)
    moves = [e for e in events if isinstance(e, ev.EntrantMoved)]
    assert [(m.from_table, m.to_table, m.reason) for m in moves] == [("B", "A", "balance")]
    assert {e.table_id for e in events if isinstance(e, ev.DealScheduled)} == {"A", "B"}


def test_a_table_breaks_when_the_others_can_seat_its_players() -> None:
    state = started(12)
    a, b = state.members("A"), state.members("B")
    tables = (
        seen(state, "A", 2, stacks=dict.fromkeys(a[:2], 0)),
        seen(state, "B", 2, stacks=dict.fromkeys(b[:4], 0)),
    )
    events = decide(state, cmd.Reconcile(tables), T0)
    assert ev.TournamentTableBroken("B") in events  # 6 players fit at one table of 6
    assert [(m.player, m.reason) for m in events if isinstance(m, ev.EntrantMoved)] == [
        (b[4], "break"),
        (b[5], "break"),
    ]
    after = fold(events, state)
    assert after.active_tables() == ["A"]
    assert len(after.members("A")) == 6


def test_the_last_player_standing_completes_and_the_pool_is_paid_out() -> None:
    state = started(4, tables=("A",))
    a = state.members("A")
    tables = (
        seen(
            state,
            "A",
            9,
            stacks={a[0]: 0, a[1]: 0, a[2]: 0, a[3]: 4000},
            start={a[0]: 10, a[1]: 10, a[2]: 20},
        ),
    )
    events = decide(state, cmd.Reconcile(tables), T0)
    done = events[-1]
    assert isinstance(done, ev.TournamentCompleted)
    assert done.winner == a[3]
    prizes = {r["player"]: r["prize"] for r in done.results}
    assert prizes == {a[3]: 200, a[2]: 120, a[0]: 40, a[1]: 40}  # 2nd alone, 3rd/4th tie
    assert sum(t.amount for t in done.transfers) == 400


def test_plan_holds_the_idle_tables_while_the_partner_plays() -> None:
    result = plan([TableLoad("A", ("a1", "a2", "a3", "a4"), True), TableLoad("B", tuple("bcdefg"), False)], 6)
    assert result.moves == []
    assert result.held == {"A"}


def test_the_seating_seed_is_a_secret_nobody_reads_before_the_start() -> None:  # DESIGN §2.6
    from tables.engine.decider.visibility import Viewer, redact_event, secret_keys

    [event] = decide(TournamentState(), cmd.CreateTournament("t1", fields(), SEED), T0)
    assert secret_keys(event.type, event.data) == ("seating_seed",)
    for role in ("player", "admin", "auditor"):
        served = redact_event(event.type, event.data, Viewer("1", role), deal_over=True)
        assert served["seating_seed"] is None
        assert served["seating_commitment"] == commitment(SEED)


def test_the_start_time_task_delivered_twice_starts_once() -> None:
    state = started(12)
    assert decide(state, cmd.Start((), by_schedule=True), T0) == []
    with pytest.raises(DomainError) as refused:
        decide(state, cmd.Start(()), T0)
    assert refused.value.code == "tournament_started"


# --- cancelling a running tournament (tournaments.engine.cancel) -------------------------------------


def test_a_running_cancel_stops_the_deals_and_waits_for_the_live_ones() -> None:
    state = started(12)
    [requested] = decide(state, cmd.Cancel(), T0)
    assert requested == ev.TournamentCancelRequested("admin", "2026-12-01T01:00:00.000000Z")
    state = fold([requested], state)
    assert (state.status, dict(state.scheduled), due_deals(state, T0 + timedelta(hours=1))) == (
        "cancelling",
        {},
        [],
    )
    assert decide(state, cmd.Cancel(), T0) == []  # a second cancel: nothing more
    with pytest.raises(DomainError) as closed:
        decide(state, cmd.Register("99"), T0)
    assert closed.value.code == "registration_closed"
    # A finished its deal, B is mid-deal: A is processed and broken, nothing is settled yet.
    tables = (seen(state, "A", 1), seen(state, "B", 1, idle=False))
    events = decide(state, cmd.Reconcile(tables), T0)
    assert events == [ev.DealProcessed("A", 1), ev.TournamentTableBroken("A")]
    assert decide(fold(events, state), cmd.Reconcile(tables), T0) == []


def test_before_any_elimination_a_cancel_refunds_every_buy_in_and_fee() -> None:
    state = run(started(12), cmd.Cancel())
    state = run(state, cmd.Reconcile((seen(state, "A", 1), seen(state, "B", 1))))
    [done] = decide(state, cmd.Reconcile((seen(state, "A", 1), seen(state, "B", 1))), T0)
    assert isinstance(done, ev.TournamentCancelled)
    assert done.settlement == "refund"
    by_reason: dict[str, int] = {}
    for t in done.transfers:
        by_reason[t.reason] = by_reason.get(t.reason, 0) + t.amount
    assert by_reason == {"tournament_buy_in_refund": 1200, "tournament_fee_refund": 120}


def test_after_an_elimination_the_pool_is_chopped_by_chips_odd_chips_from_the_dealers_left() -> None:
    state = started(3, tables=("A",), min_entrants=3, payouts=[60, 40])  # D-GEN-01
    a = state.members("A")
    out = (seen(state, "A", 1, stacks={a[0]: 0, a[1]: 1000, a[2]: 2000}, start={a[0]: 5}),)
    state = run(run(state, cmd.Reconcile(out)), cmd.Cancel())
    assert len(state.placings) == 1  # 3rd place: paid nothing
    state = run(state, cmd.Reconcile(out))  # A broken
    [done] = decide(state, cmd.Reconcile(out), T0)
    assert done.settlement == "chip_chop"
    prizes = {r["player"]: r["prize"] for r in done.results}
    # 300 in the pool, 1000 and 2000 chips: 100 and 200, no odd chip
    assert prizes == {a[0]: 0, a[1]: 100, a[2]: 200}
    assert sum(t.amount for t in done.transfers if t.source == "prizepool:t1") == 300


def test_the_refund_rule_and_kept_fees_are_recorded_at_creation() -> None:
    state = started(12, cancel_settlement="refund", cancel_fees="keep")
    assert (state.rules.cancel_settlement, state.rules.cancel_fees) == ("refund", "keep")
    with pytest.raises(DomainError) as bad:
        created(cancel_settlement="split")
    assert bad.value.code == "invalid_tournament"
