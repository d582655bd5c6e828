"""Tournament reads for the API (DESIGN §2.9): the list from TournamentView, one tournament from its
folded state plus the tables' seats (SeatView: chips as the tables' projection has them)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from tables.models import SeatView, TableView
from tables.naming import table_names, with_player_names
from tournaments.engine.config import iso
from tournaments.engine.decide import registration_open
from tournaments.models import TournamentView
from tournaments.service import tournament_get

STATUSES = ("registering", "running", "cancelling", "complete", "cancelled")


def tournament_list(*, status: str | None = None) -> QuerySet[TournamentView]:
    rows = TournamentView.objects.all()
    if status is not None:
        rows = rows.filter(status=status)
    return rows.order_by("-start_at", "tournament_id")


def tournament_detail(*, tournament_id: str, now: datetime) -> dict[str, Any]:
    """Status, level and the time to the next, tables and who sits where with their chips,
    standings (chips, places), results and payouts, and the seating proof."""
    loaded = tournament_get(tournament_id=tournament_id)
    state = loaded.state
    rules = state.rules
    level = _level(state, now)
    seats = list(
        SeatView.objects.filter(table_id__in=list(state.active_tables()) or [None])
        .exclude(status="left")
        .values("table_id", "player", "seat", "stack")
    )
    chips = {row["player"]: row["stack"] for row in seats if row["player"] in state.seats}
    tables = [
        {
            "table_id": t,
            "broken": t in state.broken,
            "closed": t in state.closed,
            "seats": sorted(
                (
                    {"seat": r["seat"], "player": r["player"], "chips": r["stack"]}
                    for r in seats
                    if str(r["table_id"]) == t
                ),
                key=lambda r: r["seat"],
            ),
        }
        for t in state.tables  # every table, in the order opened (a finished tournament's too)
    ]
    names = table_names(t["table_id"] for t in tables)
    for table in tables:
        table["name"] = names.get(table["table_id"])
    detail = {
        "tournament_id": state.tournament_id,
        "name": rules.name,
        "version": loaded.version,
        "status": state.status,
        "config": rules.to_json(),
        "entrants": list(state.entrants),
        "prize_pool": state.pool(),
        "registration_open": registration_open(state, now),
        "level": level,
        "tables": tables,
        "standings": standings(state, chips),
        "results": list(state.results),
        "payouts": payouts(state),
        "winner": state.winner,
        "seating": seating(state),
        "cancellation": cancellation(state),
    }
    return with_names(detail)


def with_names(detail: dict[str, Any]) -> dict[str, Any]:
    """The detail with `names` for every player id in it (tables.naming), `player_name` in its rows
    (standings, results, payouts, each table's seats) and `winner_name`."""
    rows = [detail["standings"], detail["results"], detail["payouts"]]
    rows += [table["seats"] for table in detail["tables"]]
    if detail["cancellation"] is not None:
        rows.append(detail["cancellation"]["payments"])
    with_player_names(detail, rows)
    detail["winner_name"] = detail["names"].get(detail["winner"]) if detail["winner"] else None
    return detail


def tournament_names_of(tournament_ids: list[str]) -> dict[str, str]:
    """{tournament id: name} (tables.naming asks, to name a tournament's tables' tournament)."""
    rows = TournamentView.objects.filter(tournament_id__in=tournament_ids).values_list(
        "tournament_id", "name"
    )
    return {str(tournament): name for tournament, name in rows}


def cancellation(state: Any) -> dict[str, Any] | None:
    """A running tournament's cancellation: in progress (the tables still finishing their deal),
    then how it settled. None for a tournament nobody cancelled after its start."""
    if state.cancel_requested_at is None:
        return None
    waiting = sorted(
        str(t)
        for t in TableView.objects.filter(table_id__in=list(state.active_tables()) or [None])
        .exclude(phase="between_deals")
        .exclude(status="closed")
        .values_list("table_id", flat=True)
    )
    return {
        "status": "in_progress" if state.status == "cancelling" else "settled",
        "requested_at": state.cancel_requested_at,
        "reason": state.cancel_reason,
        "rule": state.rules.cancel_settlement,
        "fees": state.rules.cancel_fees,
        "waiting_for": waiting,
        "settlement": state.settlement,
        "payments": [{"player": p, "amount": a} for p, a in state.payments],
    }


def payouts(state: Any) -> list[dict[str, Any]]:
    """What the prize pool paid: the prizes at completion, or a cancellation's payments."""
    if state.status == "cancelled":
        return [{"player": p, "amount": a} for p, a in state.payments]
    return [{"player": r["player"], "amount": r["prize"]} for r in state.results if r["prize"]]


def _level(state: Any, now: datetime) -> dict[str, Any]:
    rules = state.rules
    if state.status != "running":
        return {
            "level": state.level,
            "ante": rules.ante_of(max(state.level, 1)),
            "next_at": None,
            "seconds_to_next": None,
        }
    current = rules.level_at(state.start, now)
    nxt = rules.level_start(state.start, current + 1) if current < len(rules.levels) else None
    return {
        "level": current,
        "ante": rules.ante_of(current),
        "next_at": iso(nxt) if nxt else None,
        "seconds_to_next": max(0, int((nxt - now).total_seconds())) if nxt else None,
    }


def standings(state: Any, chips: dict[str, int]) -> list[dict[str, Any]]:
    """Players still in by chips (most first), then the eliminated by place."""
    still = sorted([*state.seats, *state.pending], key=lambda p: (-chips.get(p, 0), p))
    rows = [
        {
            "player": p,
            "chips": chips.get(p, 0),
            "place": None,
            "status": "playing",
            "table_id": state.seats.get(p),
        }
        for p in still
    ]
    finals = {r["player"]: r for r in state.results}
    out = sorted(state.placings, key=lambda p: (p.place, p.player))
    rows += [
        {
            "player": p.player,
            "chips": 0,
            "place": p.place,
            "places": [p.place, p.last],
            "status": "eliminated",
            "table_id": None,
        }
        for p in out
    ]
    if finals:
        rows = [
            {
                "player": r["player"],
                "chips": r.get("chips", 0),
                "place": r["place"],
                "places": [r["place"], r["last"]],
                "status": final_status(r),
                "table_id": None,
                "prize": r["prize"],
            }
            for r in state.results
        ]
    return rows


def final_status(result: dict[str, Any]) -> str:
    """winner; chopped (still in when a cancellation shared the pool by chips); eliminated."""
    if "chips" in result:
        return "chopped"
    return "winner" if result["place"] == 1 and result["last"] == 1 else "eliminated"


def seating(state: Any) -> dict[str, Any]:
    """The seating proof: the commitment at once; after the start the seed, input and output
    (docs/verify_deal.py --seating checks them)."""
    proof: dict[str, Any] = {"commitment": state.commitment, "seed": None, "entrants": None, "order": None}
    if state.status in ("running", "complete") and state.started_at is not None:
        proof.update(seed=state.seed, entrants=list(state.seating_input), order=list(state.seating_order))
    return proof


def tournament_account_names(accounts: list[str]) -> dict[str, str]:
    """ "Spring Cup prize pool", "Spring Cup chip bank" (ledger.names.account_names asks)."""
    names = tournament_names_of([account.split(":", 1)[1] for account in accounts])
    what = {"prizepool": "{} prize pool", "chipbank": "{} chip bank"}
    return {
        account: what[kind].format(names[tournament])
        for account in accounts
        for kind, tournament in [account.split(":", 1)]
        if kind in what and tournament in names
    }
