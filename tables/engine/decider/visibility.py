"""The one visibility rule: may this viewer see this fact now? (DESIGN §2.6)

A table event may carry *secret facts*: top-level keys of its data that some reader may not see
yet. `secret_keys` names them (the service passes them to the store, which seals them with a salt
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
| StockReshuffled  | cards                          | nobody; auditors once the deal is over          |
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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tables.engine.decider import events as ev

ROLES = ("player", "admin", "auditor")
SALT = "salt"  # ledger.hashing.SALT_KEY: the store's name for an event's salt
_EXCHANGED = ("cards", "gave", "received")
_DRAWN = ("cards", "discarded", "drawn")  # EXC-01/02: the count drawn is public


@dataclass(frozen=True, slots=True)
class Viewer:
    player_id: str | None = None
    role: str = "player"  # "player" | "admin" | "auditor"


# Tournaments: the seating seed is sealed at creation and revealed by TournamentStarted.
TOURNAMENT_CREATED = "TournamentCreated"


def secret_keys(event_type: str, data: dict[str, Any]) -> tuple[str, ...]:
    """The keys of `data` that hold facts some reader may not see yet (empty: a public event)."""
    if event_type == TOURNAMENT_CREATED:
        return ("seating_seed",) if data.get("seating_seed") is not None else ()
    if event_type == ev.TABLE_OPENED:
        return ("stacked_decks",) if data.get("stacked_decks") else ()
    if event_type == ev.DEAL_STARTED:
        return ("seed",) if data.get("seed") is not None else ()
    if event_type == ev.CARDS_DEALT:
        return ("cards",) if data.get("face", "down") != "up" else ()
    if event_type == ev.GHOST_DEALT:
        return ("cards",) if data.get("face", "down") != "up" else ()  # MCA-05: face up
    if event_type == ev.CARD_PASSED:
        return ("card",)
    if event_type == ev.CARDS_EXCHANGED:
        return tuple(key for key in _EXCHANGED if key in data)
    if event_type == ev.CARDS_DRAWN:
        return tuple(key for key in _DRAWN if key in data)
    if event_type == ev.STOCK_RESHUFFLED:
        return ("cards", "salts") if data.get("salts") is not None else ("cards",)
    if event_type == ev.BET_MADE:
        return ("openers",) if data.get("openers") is not None else ()
    if event_type == ev.DECK_COMMITTED:
        return ("cards", "salts")
    if event_type == ev.SEED_CONTRIBUTED:
        return ("client_seed",)
    if event_type == ev.DECLARED:
        return ("choice",) if data.get("sealed") else ()
    if event_type == ev.SHOWDOWN_HELD:
        return ("hands",) if data.get("private") else ()
    if event_type == ev.TRUMP_CHOOSER_NAMED:
        return ("ranking",) if data.get("ranking") is not None else ()
    return ()


def may_see(event_type: str, data: dict[str, Any], viewer: Viewer, *, deal_over: bool) -> bool:
    """Whether `viewer` may see the secret facts of this event now (`deal_over`: has its deal
    ended). True for an event without secrets."""
    if not secret_keys(event_type, data):
        return True
    if event_type in (ev.TABLE_OPENED, TOURNAMENT_CREATED, ev.DECK_COMMITTED):
        return False
    if event_type == ev.DEAL_STARTED:
        return deal_over
    if event_type in (ev.GHOST_DEALT, ev.TRUMP_CHOOSER_NAMED):
        return viewer.role == "auditor" and deal_over
    if event_type == ev.SHOWDOWN_HELD:
        compared = {hand["player"] for hand in data.get("hands") or ()}
        return viewer.player_id in compared or (viewer.role == "auditor" and deal_over)
    own = viewer.player_id is not None and viewer.player_id == data.get("player")
    if event_type == ev.DECLARED:
        return own or deal_over
    if event_type == ev.SEED_CONTRIBUTED:
        return own
    return own or (viewer.role == "auditor" and deal_over)


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
