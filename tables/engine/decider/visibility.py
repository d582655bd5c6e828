"""The one visibility rule: may this viewer see this fact now? (DESIGN §2.6)

A table event may carry *secret facts*: top-level keys of its data that some reader may not see
yet. Its class declares them (`SECRET`, `secret_keys(data)`) and who sees them (`AUDIENCE`);
`secret_keys` here reads the declaration (the service passes them to the store, which seals them with a salt
so that the public hash chain covers only salted commitments, see ledger.hashing); `may_see` says
who sees them and when; `redact_event` applies both. The salt is a secret fact too: it is shown
exactly with the values it seals, never without them (a salt beside a commitment would turn two
hole cards back into 2,652 guesses).

| event            | secret keys                    | who sees them                                   |
|------------------|--------------------------------|-------------------------------------------------|
| TableOpened      | stacked_decks (stacked tables) | nobody: they are every future deal              |
| DealStarted      | seed                           | everyone once the deal is over (DealEnded)      |
| CardsDealt       | cards (dealt face down)        | the holder; auditors once the deal is over      |
| GhostDealt       | cards (unless face up, MCA-05) | auditors once the deal is over (GH-02)          |
| CardPassed       | card                           | the passer; auditors once the deal is over      |
| CardsExchanged   | gave, received, cards          | the holder; auditors once the deal is over      |
| CardsDrawn       | discarded, drawn, cards        | the holder; auditors once the deal is over      |
| BetMade, open    | openers (IT-07, D-IT-03)       | the opener; everyone by OpenersShown at the end |
| StockReshuffled  | cards (and salts, schema 2)    | nobody; auditors once the deal is over          |
| DeckCommitted    | cards, salts                   | nobody: the proof opens each card to its viewers |
| SeedContributed  | client_seed                    | the player (its DealStarted publishes them all) |
| Declared, sealed | choice (in/out; 43-03's high/low/both) | the declarer; everyone once the deal is over |
| ShowdownHeld, private | hands                     | the players compared; auditors once it is over  |
| TournamentCreated | seating_seed                  | nobody: TournamentStarted reveals it |
| TrumpChooserNamed | ranking (D-WL-02)             | auditors once the deal is over                  |

Face-up cards (CardsDealt face up), the board (BoardDealt) and a lone player's cards against the
deck (DeckCompared) are public at once. Cards reach other players only through a public
ShowdownHeld (or, among the players compared, a private one, 357-09, D-357-03), and sealed
choices through DeclaresRevealed (Four-Three's High/Low/Both choice is such a sealed declare).
Thirty Eight's escalation (EscalationOpened, Escalated) is said aloud: public. Buddha's Folly's
middle card and every card put in its place (MiddleCardTurned, OfferAnswered) are public, and so
is every card played to a Wolfie's Lou trick (CardPlayed, TrickWon) and the trump (TrumpChosen);
the cards a player has not played stay secret as dealt (CardsDealt, CardsDrawn): a Wolfie's Lou
hand is never shown, and the questioning's ranking of the hands (D-WL-02) only to auditors. The ghost hand
belongs to nobody (GH-02): nobody sees it until a showdown it takes part in shows it to everyone
(GH-03, `ShowdownHeld.ghost`); auditors see every ghost once the deal is over.

`sees_cards` is the same rule for the folded state (the table view, the deal summaries).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tables.engine.decider import events as ev

ROLES = ("player", "admin", "auditor")
SALT = "salt"  # ledger.hashing.SALT_KEY: the store's name for an event's salt


@dataclass(frozen=True, slots=True)
class Viewer:
    player_id: str | None = None
    role: str = "player"  # "player" | "admin" | "auditor"


def secret_keys(event_type: str, data: dict[str, Any]) -> tuple[str, ...]:
    """The keys of `data` that hold facts some reader may not see yet (empty: a public event), as
    the event's class declares them (`Event.SECRET`, `Event.secret_keys`)."""
    cls = ev.REGISTRY.get(event_type)
    return cls.secret_keys(data) if cls is not None else ()


def may_see(event_type: str, data: dict[str, Any], viewer: Viewer, *, deal_over: bool) -> bool:
    """Whether `viewer` may see the secret facts of this event now (`deal_over`: has its deal
    ended), by the audience its class declares (`Event.AUDIENCE`). True for an event without
    secrets."""
    cls = ev.REGISTRY.get(event_type)
    if cls is None or not cls.secret_keys(data):
        return True
    return _AUDIENCES[cls.AUDIENCE](data, viewer, deal_over)


def _is_holder(data: dict[str, Any], viewer: Viewer) -> bool:
    return viewer.player_id is not None and viewer.player_id == data.get("player")


def _compared(data: dict[str, Any], viewer: Viewer) -> bool:
    return viewer.player_id in {hand["player"] for hand in data.get("hands") or ()}


_Audience = Callable[[dict[str, Any], Viewer, bool], bool]
_AUDIENCES: dict[str, _Audience] = {
    ev.HOLDER: lambda data, viewer, over: _is_holder(data, viewer) or (viewer.role == "auditor" and over),
    ev.HOLDER_THEN_ALL: lambda data, viewer, over: _is_holder(data, viewer) or over,
    ev.HOLDER_ONLY: lambda data, viewer, over: _is_holder(data, viewer),
    ev.ALL_AFTER_DEAL: lambda data, viewer, over: over,
    ev.AUDITORS_AFTER_DEAL: lambda data, viewer, over: viewer.role == "auditor" and over,
    ev.COMPARED: lambda data, viewer, over: _compared(data, viewer) or (viewer.role == "auditor" and over),
    ev.NOBODY: lambda data, viewer, over: False,
}


def sees_cards(
    viewer: Viewer, holder: str, *, shown: Iterable[str], compared: Iterable[str], over: bool
) -> bool:
    """Whether `viewer` may see every card `holder` holds: his own, a hand shown to all, a hand
    compared privately with the viewer's, or any hand for an auditor once the deal is over."""
    if viewer.player_id == holder or holder in shown or (viewer.role == "auditor" and over):
        return True
    compared = set(compared)
    return holder in compared and viewer.player_id in compared


def sees_ghost(viewer: Viewer, *, shown: bool, over: bool) -> bool:
    """Whether `viewer` may see the ghost hand: once a showdown showed it to everyone (GH-03), or
    an auditor once the deal is over. Nobody holds it, so nobody sees it before (GH-02)."""
    return shown or (viewer.role == "auditor" and over)


def redact_event(event_type: str, data: dict[str, Any], viewer: Viewer, *, deal_over: bool) -> dict[str, Any]:
    """`data` as `viewer` may see it (a new dict; the input is not changed): each secret key the
    viewer may not see is null, and the salt is absent. Nothing is added, so the served data plus
    the served commitments are exactly what the hash chain covers (ledger.hashing.chain_form)."""
    if may_see(event_type, data, viewer, deal_over=deal_over):
        return dict(data)
    hidden = secret_keys(event_type, data)
    return {key: (None if key in hidden else value) for key, value in data.items() if key != SALT}
