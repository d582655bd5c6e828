"""Cancelling a running tournament (docs/tournaments.md, "Cancelling a running tournament"): no new
deal starts, each table finishes its deal, the tables break (pot and reserve shared, D-GEN-07), and
the prize pool is settled by the rule recorded at creation: every buy-in back before any
elimination; after one, a chip chop (odd chips by D-GEN-01). All as events, every chip of the pool
paid, conserved per unit at every event, verify_ledger passing, rebuild equal to live.

Both tournaments are cancelled with a deal live at each of their two tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from http_edge.roles import CLUB_ADMIN, grant_role
from ledger.accounts import chipbank_account, tournament_unit
from ledger.money import balance, balances
from ledger.store import read_stream
from ledger.verify import verify_ledger
from tables.state import load_table, table_stream
from tournaments import selectors, service
from tournaments.engine.cancel import proportional
from tournaments.models import TournamentView

from .test_api import client_for
from .test_tournament import Run, assert_conservation_at_every_event, assert_rebuild_equals_live, best_and

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(db: Any) -> APIClient:
    user = get_user_model().objects.create_user(username="cancel-admin", password="pw-not-used")
    grant_role(user, CLUB_ADMIN)
    return client_for(user)


def live_at_both(run: Run) -> tuple[str, str]:
    a, b = run.state.active_tables()
    assert load_table(a).state.live is not None
    assert load_table(b).state.live is not None
    return a, b


def two_out(run: Run) -> tuple[str, str]:
    """Two players lose everything in the second deal of table A (places 11 and 12, as in
    test_tournament.py); the next deals are then live at both tables."""
    a, b = run.state.tables
    run.tick(0)
    first = run.play(a, best_and(1, 2, 4, 5))
    v1, v2 = first.deal.order[3], first.deal.order[4]
    run.play(b, best_and())
    run.tick()
    run.tick()
    run.play(a, best_and(2, 3))
    run.play(b, best_and())
    run.tick()  # eliminated
    run.tick()  # the next deals start
    live_at_both(run)
    assert {p.player for p in run.state.placings} == {v1, v2}
    return v1, v2


def detail(run: Run) -> dict[str, Any]:
    return selectors.tournament_detail(tournament_id=run.tid, now=timezone.now())


def types(run: Run) -> list[str]:
    return [e.type for e in run.stream()]


def assert_settled_whole(run: Run) -> None:
    """Every chip of the pool paid, every tournament chip back in the bank, the log sound."""
    [done] = [e for e in run.stream() if e.type == "TournamentCancelled"]
    pool = f"prizepool:{run.tid}"
    assert sum(t["amount"] for t in done.data["transfers"] if t["from"] == pool) == run.state.pool()
    assert balance(pool) == 0
    unit = tournament_unit(run.tid)
    assert balance(chipbank_account(run.tid), unit) == 0
    assert all(amount == 0 for amount in balances(unit).values())
    for table in run.state.tables:
        assert load_table(table).state.status == "closed"
        assert any(e.type == "TableFinished" for e in read_stream(table_stream(table)))
    assert TournamentView.objects.get(tournament_id=run.tid).status == "cancelled"
    assert_conservation_at_every_event()
    report = verify_ledger()
    assert report.ok, report.to_json()
    assert_rebuild_equals_live()


def test_cancelled_mid_deal_before_any_elimination_refunds_every_buy_in(
    funded_player: Callable[..., int], admin: APIClient
) -> None:
    run = Run(funded_player)
    run.tick(0)  # the first deals start
    a, b = live_at_both(run)
    answer = admin.post(f"/api/v1/tournaments/{run.tid}/cancel", {}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["status"] == "cancelling"  # in progress, on view
    assert body["cancellation"]["status"] == "in_progress"
    assert body["cancellation"]["waiting_for"] == sorted([a, b])
    assert body["registration_open"] is False
    assert admin.post(f"/api/v1/tournaments/{run.tid}/cancel", {}, format="json").status_code == 200

    run.play(a, best_and())  # table A finishes its deal
    run.tick()
    assert load_table(a).state.status == "broken"  # broken, no new deal
    assert load_table(a).state.deal_no == 1
    assert load_table(a).state.live is None
    assert detail(run)["cancellation"]["waiting_for"] == [b]
    run.tick(60)
    assert load_table(a).state.deal_no == 1  # still no deal after any pause
    assert "TournamentCancelled" not in types(run)

    run.play(b, best_and())  # table B finishes its deal
    run.tick()
    assert run.state.status == "cancelled"
    [done] = [e for e in run.stream() if e.type == "TournamentCancelled"]
    assert done.data["settlement"] == "refund"
    for player in run.players:  # buy-in and fee back
        assert balance(f"player:{player}") == 1000
    assert balance("house") == 0
    shown = detail(run)
    assert shown["status"] == "cancelled"
    assert shown["cancellation"]["status"] == "settled"
    assert sorted(p["amount"] for p in shown["payouts"]) == [100] * 12
    assert_settled_whole(run)


def test_cancelled_mid_deal_after_eliminations_chops_the_pool_by_chips(
    funded_player: Callable[..., int], settings: Any
) -> None:
    settings.GUTS_TOURNAMENT_CANCEL_FEES = "keep"  # the club keeps the fees
    run = Run(funded_player, buy_in=70)  # a pool of 840 for 1200 chips
    v1, v2 = two_out(run)
    cancelling = service.tournament_cancel(tournament_id=run.tid, now=run.now)
    assert cancelling.state.status == "cancelling"
    for table in run.state.active_tables():
        run.play(table, best_and())
    run.tick()
    assert run.state.status == "cancelled", types(run)[-6:]

    [done] = [e for e in run.stream() if e.type == "TournamentCancelled"]
    assert done.data["settlement"] == "chip_chop"
    results = {r["player"]: r for r in done.data["results"]}
    assert (results[v1]["prize"], results[v2]["prize"]) == (0, 0)  # places 11 and 12 pay nothing
    survivors = [r for r in done.data["results"] if "chips" in r]
    assert len(survivors) == 12 - len(run.state.placings) == 10
    assert sum(r["chips"] for r in survivors) == 1200  # every tournament chip counted
    assert sum(r["prize"] for r in survivors) == 840  # the whole pool, chopped
    for r in survivors:  # in proportion, odd chips 0 or 1
        assert 0 <= r["prize"] - 840 * r["chips"] // 1200 <= 1
        assert balance(f"player:{r['player']}") == 1000 - 80 + r["prize"]
    assert balance("house") == 120  # fees kept (the club's setting)
    assert {(r["place"], r["last"]) for r in survivors} == {(1, 10)}  # they share places 1-10
    assert {row["status"] for row in detail(run)["standings"]} == {"chopped", "eliminated"}
    assert_settled_whole(run)


def test_the_refund_rule_refunds_even_after_eliminations(funded_player: Callable[..., int]) -> None:
    run = Run(funded_player, cancel_settlement="refund")
    two_out(run)
    service.tournament_cancel(tournament_id=run.tid, now=run.now)
    for table in run.state.active_tables():
        run.play(table, best_and())
    run.tick()
    [done] = [e for e in run.stream() if e.type == "TournamentCancelled"]
    assert done.data["settlement"] == "refund"
    for player in run.players:  # the busted ones too
        assert balance(f"player:{player}") == 1000
    assert_settled_whole(run)


@given(st.integers(0, 10**9), st.lists(st.integers(1, 10**6), min_size=1, max_size=30))
def test_a_chop_pays_every_chip_in_proportion(total: int, chips: list[int]) -> None:  # D-GEN-01
    weights = [(str(i), c) for i, c in enumerate(chips)]
    shares = proportional(total, weights)
    assert sum(shares.values()) == total
    odd = [shares[p] - total * c // sum(chips) for p, c in weights]
    assert all(x in (0, 1) for x in odd)
    assert odd == sorted(odd, reverse=True)  # the odd chips from the dealer's left
