"""A player's tournaments (`GET /me/tournaments`) and the live views of one tournament (its stream).

My tournaments are found through `TournamentEntrant` (a projection of the registrations); what each
says of me comes from the tournament detail's own standings (`selectors.standings`), and my seat
from the tables' SeatView, so nothing here decides anything the detail does not.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from http_edge.roles import User, player_id_of
from tables.engine.decider.view import Viewer
from tables.errors import UnknownTable
from tables.live import Snapshot, View
from tables.me import MePart
from tables.models import SeatView
from tables.selectors import table_get
from tables.state import table_stream
from tournaments.models import TournamentEntrant, TournamentView
from tournaments.selectors import standings, tournament_detail
from tournaments.service import tournament_get
from tournaments.state import tournament_stream

FINISHED = ("complete", "cancelled")


def my_tournament_ids(user: User) -> list[str]:
    """The tournaments the user is registered for, most recently registered first."""
    player = player_id_of(user)
    if player is None:
        return []
    rows = TournamentEntrant.objects.filter(player=str(player)).order_by("-registered_at", "tournament_id")
    return [str(t) for t in rows.values_list("tournament_id", flat=True)]


def my_entry(tournament_id: str, player: str) -> dict[str, Any] | None:
    """What one tournament says of me: its status, mine (registered, waiting for a seat, playing,
    eliminated, winner, chopped, refunded), my place, chips, prize, table and seat. None while the
    projections do not have the tournament (a rebuild in progress)."""
    row = TournamentView.objects.filter(tournament_id=tournament_id).first()
    if row is None:
        return None
    state = tournament_get(tournament_id=tournament_id).state
    table = state.seats.get(player)
    seat = (
        SeatView.objects.filter(table_id=table, player=player)
        .exclude(status="left")
        .values("seat", "stack")
        .first()
        if table is not None
        else None
    )
    chips = {player: seat["stack"]} if seat is not None else {}
    standing = next((s for s in standings(state, chips) if s["player"] == player), None)
    return {
        "tournament_id": str(row.tournament_id),
        "name": row.name,
        "variant": row.variant,
        "status": row.status,
        "version": row.version,
        "start_at": row.start_at,
        "entry": _entry_status(state, player, standing),
        "place": standing["place"] if standing else None,
        "places": standing.get("places") if standing else None,
        "chips": standing["chips"] if standing else None,
        "prize": standing.get("prize") if standing else None,
        "table_id": table,
        "seat": seat["seat"] if seat is not None else None,
    }


def _entry_status(state: Any, player: str, standing: dict[str, Any] | None) -> str:
    if player in state.pending:
        return "waiting"  # a late registrant, seated at the next reconcile
    if standing is None:
        return "refunded" if state.status == "cancelled" else "registered"
    return str(standing["status"])


def my_tournaments(*, user: User) -> list[dict[str, Any]]:
    """`GET /me/tournaments`: the tournaments still to finish first (soonest start first), then
    the finished ones (latest first)."""
    player = player_id_of(user)
    if player is None:
        return []
    entries = [e for t in my_tournament_ids(user) if (e := my_entry(t, str(player))) is not None]
    live = sorted((e for e in entries if e["status"] not in FINISHED), key=lambda e: e["start_at"])
    done = sorted((e for e in entries if e["status"] in FINISHED), key=lambda e: e["start_at"], reverse=True)
    return live + done


def my_tournaments_body(user: User, now: datetime | None = None) -> dict[str, Any]:
    entries = my_tournaments(user=user)
    return {"count": len(entries), "results": entries}


def my_tournament_streams(user: User) -> list[str]:
    """The streams of my tournaments that may still change (a start seats me, a move moves me)."""
    unfinished = TournamentView.objects.filter(tournament_id__in=my_tournament_ids(user)).exclude(
        status__in=FINISHED
    )
    return [tournament_stream(t) for t in unfinished.values_list("tournament_id", flat=True)]


ME_PART = MePart(event="tournaments", streams=my_tournament_streams, body=my_tournaments_body)


# --- one tournament, live -------------------------------------------------------------------------


def _without_clock(detail: dict[str, Any]) -> dict[str, Any]:
    """The detail less its countdown (`seconds_to_next` moves with the clock, not with events)."""
    level = {k: v for k, v in detail["level"].items() if k != "seconds_to_next"}
    return {**detail, "level": level}


def tournament_snapshot(*, tournament_id: str, viewer: Viewer, now: datetime) -> Snapshot:
    """The tournament's stream: its detail (as GET /tournaments/{id}) and the view of each of its
    playing tables as GET /tables/{id} shows it to this viewer (his own cards only, DESIGN §2.6)."""
    detail = tournament_detail(tournament_id=tournament_id, now=now)
    playing = [t["table_id"] for t in detail["tables"] if not t["broken"]]
    views = [View("tournament", "tournament", detail, same=_without_clock(detail))]
    for table in playing:
        try:
            views.append(
                View("table", f"table:{table}", table_get(table_id=table, viewer=viewer, now=now).view)
            )
        except UnknownTable:
            continue
    watched = {tournament_stream(tournament_id), *(table_stream(t) for t in playing)}
    return Snapshot(frozenset(watched), views)
