"""What the pages draw, made from what the API serves: cards as text with suit symbols, players by
name, accounts in words, a table view as seats round a pot, an event as a line a person reads.

Everything here reshapes the JSON the selectors built for the caller (the engine's `table_view`
and `redact_event` for his Viewer); nothing reads a card or a fact they did not hand over, so a
page can never show more than its API twin.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model

from http_edge.roles import User, can_view_player, player_id_of
from ledger.accounts import account_kind

SUITS = {
    "c": ("\u2663", "clubs"),
    "d": ("\u2666", "diamonds"),
    "h": ("\u2665", "hearts"),
    "s": ("\u2660", "spades"),
}
RANKS = {
    "2": "Two",
    "3": "Three",
    "4": "Four",
    "5": "Five",
    "6": "Six",
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "T": "Ten",
    "10": "Ten",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}
CARD = re.compile(r"^(10|[2-9TJQKA])([cdhs])$")

# Event data keys that name one player, or a list of players (the engine's spelling).
PLAYER_KEYS = frozenset({"player", "dealer", "by", "winner", "high_bidder", "forced", "to", "from_player"})
PLAYERS_KEYS = frozenset(
    {
        "players",
        "participants",
        "winners",
        "losers",
        "matchers",
        "paid",
        "sat_out",
        "folded",
        "timed_out",
        "order",
        "shown",
        "compared",
        "high",
        "low",
    }
)
HIDDEN_KEYS = frozenset({"secret", "salt", "deal_no"})  # chain bookkeeping, not news


@dataclass(frozen=True, slots=True)
class CardFace:
    """One card as drawn: `None` text for a card the viewer may not see (a card back)."""

    text: str | None
    rank: str = ""
    suit: str = ""
    red: bool = False
    label: str = "a hidden card"
    up: bool = False


def card_face(text: str, *, up: bool = False) -> CardFace:
    """'Td' -> 10♦ (red), labelled 'Ten of diamonds' for screen readers."""
    match = CARD.match(text)
    if match is None:
        return CardFace(text, rank=text, label=text, up=up)
    rank, suit = match.groups()
    symbol, suit_name = SUITS[suit]
    return CardFace(
        text,
        rank="10" if rank == "T" else rank,
        suit=symbol,
        red=suit in "dh",
        label=f"{RANKS[rank]} of {suit_name}",
        up=up,
    )


def card_back() -> CardFace:
    return CardFace(None)


def is_cards(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(c, str) and CARD.match(c) is not None for c in value)
    )


class Names:
    """Players by name where the API would tell this user who they are (GET /players/{id}:
    auditors and club admins everyone, a player himself), else by number."""

    def __init__(self, user: User, player_ids: Iterable[str]) -> None:
        self.you = player_id_of(user)
        wanted = {int(p) for p in player_ids if str(p).isdigit() and can_view_player(user, int(p))}
        users = get_user_model().objects.filter(pk__in=wanted).values_list("pk", "username", "first_name")
        self._known = {str(pk): first or username for pk, username, first in users}

    def __getitem__(self, player: object) -> str:
        player = str(player)
        if player == "board":
            return "the board"
        if player == "ghost":
            return "the ghost hand"
        if player == "deck":
            return "the deck"
        if player == "middle":
            return "the middle card"
        name = self._known.get(player, f"Player {player}")
        return f"{name} (you)" if self.you is not None and player == str(self.you) else name

    def as_dict(self, players: Iterable[object]) -> dict[str, str]:
        return {str(p): self[p] for p in players}


def player_ids_in(value: Any, key: str = "") -> set[str]:
    """Every player id named in a served JSON value (seats, deal players, event data)."""
    found: set[str] = set()
    if isinstance(value, Mapping):
        for k, item in value.items():
            found |= player_ids_in(item, k)
    elif isinstance(value, list):
        if key in PLAYERS_KEYS:
            found |= {str(p) for p in value if isinstance(p, str | int)}
        for item in value:
            if isinstance(item, Mapping | list):
                found |= player_ids_in(item, key)
    elif key in PLAYER_KEYS and isinstance(value, str | int) and value is not None:
        found.add(str(value))
    elif key in {"from", "to"} and isinstance(value, str) and account_kind(value) in {"seat", "player"}:
        found.add(value.rsplit(":", 1)[1])
    return found


def account_words(account: str, names: Names) -> str:
    """'seat:<table>:4' -> "bob's stack"; 'pot:<table>' -> 'the pot'; 'sidepot:<table>:1' -> 'side pot 1'."""
    kind = account_kind(account)
    owner = account.rsplit(":", 1)[-1]
    whose = "your" if names.you is not None and owner == str(names.you) else f"{names[owner]}'s"
    words = {
        "seat": f"{whose} stack",
        "player": f"{whose} bankroll",
        "pot": "the pot",
        "reserve": "the reserve",
        "bets": "the bets",
        "sidepot": f"side pot {owner}",
        "cashier": "the cashier",
        "house": "the house",
    }
    return words.get(kind, account)


def transfers_json(transfers: Iterable[Mapping[str, Any]], names: Names) -> list[dict[str, Any]]:
    return [
        {
            "source": account_words(t["from"], names),
            "target": account_words(t["to"], names),
            "amount": t["amount"],
            "reason": str(t.get("reason", "")).replace("_", " "),
            "unit": t.get("unit", "chips"),
        }
        for t in transfers
    ]


# --- a table view (the engine's table_view for the caller) ----------------------------------------


@dataclass
class SeatDisplay:
    player: str
    name: str
    seat: int | None
    stack: int | None
    legs: int = 0
    cards: list[CardFace] = field(default_factory=list)
    declared: str | None = None
    folded: bool = False
    timed_out: bool = False
    forced_in: bool = False
    sitting_out: bool = False
    waiting: bool = False
    dealer: bool = False
    turn: bool = False
    you: bool = False
    in_deal: bool = False
    winner: bool = False
    stake: int | None = None  # the current (or last) betting round's stake (D-BET)
    drew: int | None = None  # how many cards he drew (D-IT-05: public)
    all_in: bool = False  # D-IT-02
    opener: bool = False  # IT-07


def hand_faces(player: Mapping[str, Any]) -> list[CardFace]:
    """A deal player's cards as the view serves them: every card if `cards` is given, else his
    face-up cards and a back for each card he holds face down (`card_count`)."""
    up = Counter(player.get("face_up") or [])
    if player.get("cards") is not None:
        faces = []
        for card in player["cards"]:
            faces.append(card_face(card, up=up[card] > 0))
            up[card] -= 1
        return faces
    shown = [card_face(card, up=True) for card in player.get("face_up") or []]
    return shown + [card_back() for _ in range(max(player.get("card_count", 0) - len(shown), 0))]


def seats_display(view: Mapping[str, Any], names: Names) -> list[SeatDisplay]:
    """The seats in seat order, each with his part of the live (or last) deal."""
    deal = view.get("deal") or {}
    in_deal = {p["player"]: p for p in deal.get("players") or []}
    turn = set(deal.get("turn") or []) if not deal.get("over") else set()
    winners = set(deal.get("winners") or [])
    seated = [(s["player"], s) for s in view.get("seats") or []]
    gone = [(p, {}) for p in in_deal if p not in {player for player, _ in seated}]  # left mid-deal
    betting = deal.get("betting") or {}
    draws = deal.get("draws") or {}
    seats = []
    for player, seat in [*seated, *gone]:
        part = in_deal.get(player)
        seats.append(
            SeatDisplay(
                player=player,
                name=names[player],
                seat=seat.get("seat"),
                stack=seat.get("stack"),
                legs=seat.get("legs", 0),
                sitting_out=seat.get("sitting_out", False),
                waiting=seat.get("waiting", False),
                dealer=deal.get("dealer") == player,
                turn=player in turn,
                you=names.you is not None and player == str(names.you),
                in_deal=part is not None,
                winner=player in winners,
                cards=hand_faces(part) if part else [],
                declared=part.get("declared") if part else None,
                folded=bool(part and part.get("folded")),
                timed_out=bool(part and part.get("timed_out")),
                forced_in=bool(part and part.get("forced_in")),
                stake=(betting.get("stakes") or {}).get(player) if part else None,
                drew=draws.get(player) if part else None,
                all_in=player in (betting.get("all_in") or ()),
                opener=betting.get("opener") == player,
            )
        )
    return seats


def pots_display(view: Mapping[str, Any], names: Names) -> list[dict[str, Any]]:
    """D-IT-02: each pot of a poker deal as formed so far: its chips, who put how much in and who
    may win it."""
    betting = ((view.get("deal") or {}).get("betting")) or {}
    return [
        {
            "name": "Main pot" if pot["pot"] == 0 else f"Side pot {pot['pot']}",
            "amount": pot["amount"],
            "contributions": ", ".join(
                f"{names[p]} {c}" for p, c in (pot.get("contributions") or {}).items()
            ),
            "eligible": ", ".join(names[p] for p in pot.get("eligible") or ()),
        }
        for pot in betting.get("pots") or ()
    ]


def table_display(view: Mapping[str, Any], names: Names) -> dict[str, Any]:
    """A table view as the templates draw it (web/_table.html)."""
    deal = view.get("deal")
    ghost = (deal or {}).get("ghost")
    return {
        "view": view,
        "deal": deal,
        "seats": seats_display(view, names),
        "phase": str(view.get("phase", "")).replace("_", " "),
        "board": [card_face(card, up=True) for card in (deal or {}).get("board") or []],
        "ghost": hand_faces({"cards": ghost["cards"], "card_count": ghost["card_count"]}) if ghost else None,
        "results": [event_display(r["type"], r["data"], names) for r in (deal or {}).get("results") or []],
        "winners": [names[p] for p in (deal or {}).get("winners") or []],
        "pots": pots_display(view, names),
        "opener": names[opener] if (opener := ((deal or {}).get("betting") or {}).get("opener")) else None,
    }


# --- one event (a replay step, a deal's result) ---------------------------------------------------


def humanise(type_name: str) -> str:
    """'CardsDealt' -> 'Cards dealt'."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type_name).lower()
    return words[:1].upper() + words[1:]


def event_display(type_name: str, data: Mapping[str, Any], names: Names) -> dict[str, Any]:
    """An event's served data as labelled fields: players by name, cards as cards, money as
    transfers; a value the viewer may not see stays `hidden`."""
    fields = []
    for key in sorted(data):
        if key in HIDDEN_KEYS or key == "transfers":
            continue
        fields.append(field_display(key, data[key], names, secret=key in (data.get("secret") or ())))
    return {
        "type": type_name,
        "title": humanise(type_name),
        "fields": fields,
        "transfers": transfers_json(data.get("transfers") or [], names),
    }


def field_display(key: str, value: Any, names: Names, *, secret: bool = False) -> dict[str, Any]:
    label = key.replace("_", " ")
    if value is None:
        if secret:
            return {"label": label, "kind": "hidden", "value": "hidden"}
        return {"label": label, "kind": "text", "value": "none"}
    if key in PLAYER_KEYS and isinstance(value, str | int) and not isinstance(value, bool):
        return {"label": label, "kind": "text", "value": names[value]}
    if key in PLAYERS_KEYS and isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return {"label": label, "kind": "text", "value": ", ".join(names[v] for v in value) or "nobody"}
    if is_cards(value):
        return {"label": label, "kind": "cards", "value": [card_face(card) for card in value]}
    if isinstance(value, list) and value and all(isinstance(v, Mapping) and "player" in v for v in value):
        return {"label": label, "kind": "hands", "value": [hand_display(v, names) for v in value]}
    if isinstance(value, Mapping) and set(value) == {"player", "amount"}:  # an uncalled bet returned
        return {"label": label, "kind": "text", "value": f"{value['amount']} to {names[value['player']]}"}
    if (
        key == "pots"
        and isinstance(value, list)
        and all(isinstance(v, Mapping) and "pot" in v for v in value)
    ):
        return {"label": label, "kind": "text", "value": "; ".join(pot_words(v, names) for v in value)}
    if isinstance(value, bool):
        return {"label": label, "kind": "text", "value": "yes" if value else "no"}
    if key == "deadline" and isinstance(value, str):
        return {"label": label, "kind": "text", "value": moment_words(value)}
    if isinstance(value, Mapping | list):
        return {"label": label, "kind": "text", "value": compact(value, names)}
    return {"label": label, "kind": "text", "value": str(value)}


def pot_words(pot: Mapping[str, Any], names: Names) -> str:
    """D-IT-02: 'Side pot 1: 40 for Ann, Bob; won by Bob 40'."""
    name = "Main pot" if pot.get("pot") == 0 else f"Side pot {pot.get('pot')}"
    eligible = ", ".join(names[p] for p in pot.get("eligible") or ()) or "nobody"
    shares = pot.get("shares") or {}
    won = f"; won by {', '.join(f'{names[p]} {c}' for p, c in shares.items())}" if shares else ""
    return f"{name}: {pot.get('amount')} for {eligible}{won}"


def moment_words(text: str) -> str:
    """'2026-12-01T21:43:29.186551Z' -> '21:43:29 UTC' (the date is the event's own)."""
    try:
        return datetime.fromisoformat(text).astimezone(UTC).strftime("%H:%M:%S UTC")
    except ValueError:
        return text


def hand_display(entry: Mapping[str, Any], names: Names) -> dict[str, Any]:
    """A showdown's hand: who, the cards shown (or hidden), what they make."""
    cards = entry.get("cards")
    rest = {k: v for k, v in entry.items() if k not in {"player", "cards"}}
    return {
        "name": names[entry["player"]],
        "cards": [card_face(c) for c in cards] if isinstance(cards, list) else None,
        "value": rest.get("value") or compact(rest, names),
    }


def compact(value: Any, names: Names) -> str:
    """A nested value in a few words ('bob: 20, ann: 10')."""
    if isinstance(value, Mapping):
        return ", ".join(
            f"{names[k] if str(k).isdigit() else str(k).replace('_', ' ')}: {compact(v, names)}"
            for k, v in value.items()
        )
    if isinstance(value, list):
        return ", ".join(compact(v, names) for v in value)
    return "none" if value is None else str(value)
