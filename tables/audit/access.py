"""Who is reading: the caller as the engine's `Viewer`, and the table streams they may read.

Every authenticated user may read a table's history; what they see of it is decided by the
engine's one redaction function (`tables.engine.decider.view.redact_event`, DESIGN §2.6) for the
`Viewer` built here: a player sees their own cards and what was shown, an auditor also every card
of a finished deal, a club admin the public facts (admins run tables; they are not auditors).
"""
from __future__ import annotations

from guts_backend.roles import User, is_auditor, is_club_admin, player_id_of
from tables.engine.decider.view import Viewer
from tables.state import table_id_of


def viewer_for(user: User) -> Viewer:
    """The engine viewer for an API caller. Player ids in table events are the user pk as text."""
    player_id = player_id_of(user)
    player = str(player_id) if player_id is not None else None
    if is_auditor(user):
        return Viewer(player_id=player, role="auditor")
    if is_club_admin(user):
        return Viewer(player_id=player, role="admin")
    return Viewer(player_id=player, role="player")


def table_of_stream(stream: str) -> str | None:
    """The table id of a `table-<uuid>` stream, None for any other stream."""
    return table_id_of(stream) if stream.startswith("table-") else None
