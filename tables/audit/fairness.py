"""The fairness proof of a deal (DESIGN §2.7, docs/deck.md).

Deals of deck schema 2 (every deal the service starts now) are proven card by card without any
seed: `openings.fair_proof`, during the deal (each reader's openings so far) as after it. What
follows is the seed recipe of schema 1, which old deals keep, proven once they are over:
DealStarted published sha256(seed); DealEnded revealed the seed. The proof recomputes the deck
with the engine's `verify_deal` and checks every card dealt, in the order the cards left the
deck (round by round, from the dealer's left, D-G2-01; then each draw, EXC-01/02), against the
card the seed puts there. When the stock ran out, the discards reshuffled into it (D-GEN-02,
`StockReshuffled`) follow the pack in the recomputed deck, shuffled by their sub-seed.

What the reader sees of the cards follows `redact_event`: an auditor every card and the whole
recomputed deck; a player their own cards and the shown ones. Every card still gets its verdict
(`matches`), so a player learns that the deal was honest without learning hidden hands from us.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from ledger.store import StoredEvent
from tables.audit.deals import DealRecord, deal_load
from tables.audit.openings import fair_proof
from tables.engine import fairdeck, verify_deal
from tables.engine.cards import Card
from tables.engine.decider import events as ev
from tables.engine.decider import ghost
from tables.engine.decider.events import parse
from tables.engine.decider.evolve import evolve
from tables.engine.decider.program import deck_for
from tables.engine.decider.view import Viewer, redact_event
from tables.engine.deck import Deck
from tables.errors import DealNotFinished


@dataclass(frozen=True, slots=True)
class DealtCard:
    index: int  # 0 = the top card of the deck, the first card dealt
    player: str  # the holder; "board" for community cards, "deck" for 42X-03's deck cards,
    # "ghost" for the ghost hand (GH-02), "middle" for Buddha's Folly's middle card (BF-02)
    card: str
    public: bool = False  # dealt face up, to the board, or turned against a lone "in" player
    version: int = 0  # the stream version of the event that dealt it


def dealing_order(events: tuple[StoredEvent, ...] | list[StoredEvent]) -> list[DealtCard]:
    """Every card taken from the deck, in the order it left it.

    A deal step is a run of CardsDealt events, one per recipient from the dealer's left; a face-down
    event holds the player's whole hand (the new cards are the hand minus what he held), a face-up
    one only its new cards. The program deals them one at a time round the table
    (steps/deal.py), which is the order here. Board cards (BoardDealt) and the deck's cards turned
    against a lone player (DeckCompared) leave the deck in one run each, and so do a player's
    drawn cards (CardsDrawn, EXC-01/02) and Buddha's Folly's middle card (MiddleCardTurned,
    BF-02). The ghost hand (GhostDealt) is the last recipient of its deal step's rounds (D-GH-03)."""
    held: dict[str, int] = {}
    step: list[tuple[str, list[str], bool, int]] = []
    order: list[tuple[str, str, bool, int]] = []
    for event in events:
        data = event.data
        holder = _recipient(event)
        if holder is None or any(player == holder for player, _, _, _ in step):
            order += _round_robin(step)
            step = []
        if holder is not None:
            player, cards, up = holder, data["cards"], data.get("face") == "up"
            new = cards if up else cards[held.get(player, 0) :]
            step.append((player, new, up, event.version))
            held[player] = held.get(player, 0) + len(new)
        elif event.type == ev.BOARD_DEALT:
            order += [("board", card, True, event.version) for card in data["cards"]]
        elif event.type == ev.DECK_COMPARED:
            order += [("deck", card, True, event.version) for card in data["deck_cards"]]
        elif event.type == ev.CARDS_DRAWN:
            order += [(data["player"], card, False, event.version) for card in data["drawn"]]
        elif event.type == ev.MIDDLE_CARD_TURNED:
            order.append(("middle", data["card"], True, event.version))
    order += _round_robin(step)
    return [
        DealtCard(index, player, card, public, version)
        for index, (player, card, public, version) in enumerate(order)
    ]


def _recipient(event: StoredEvent) -> str | None:
    """Who a dealing event deals to, one card a round: a player, or the ghost (GH-02)."""
    if event.type == ev.CARDS_DEALT:
        return str(event.data["player"])
    return ghost.HOLDER if event.type == ev.GHOST_DEALT else None


def _round_robin(step: list[tuple[str, list[str], bool, int]]) -> list[tuple[str, str, bool, int]]:
    rounds = max((len(cards) for _, cards, _, _ in step), default=0)
    return [
        (player, cards[r], up, version)
        for r in range(rounds)
        for player, cards, up, version in step
        if r < len(cards)
    ]


def reshuffled(events: tuple[StoredEvent, ...] | list[StoredEvent]) -> list[list[str]]:
    """The batches of discards shuffled into the stock (D-GEN-02), in order."""
    return [list(event.data["cards"]) for event in events if event.type == ev.STOCK_RESHUFFLED]


def visible_hands(events: tuple[StoredEvent, ...], viewer: Viewer, *, deal_over: bool) -> set[str]:
    """The players (and the ghost) whose face-down cards this viewer may see (per the engine's
    redact_event; a face-up event shows only its own cards, which `DealtCard.public` covers)."""
    return {
        holder
        for event in events
        if (holder := _recipient(event)) is not None
        and event.data.get("face") != "up"
        and redact_event(event.type, event.data, viewer, deal_over=deal_over)["cards"] is not None
    }


def deal_pack(record: DealRecord) -> tuple[Card, ...]:
    """The pack this deal was dealt from, as the engine chose it."""
    state = evolve(record.before, parse(record.events[0].type, record.events[0].data))
    assert state.deal is not None
    return deck_for(state, state.deal).pack


def proof_json(record: DealRecord, viewer: Viewer) -> dict[str, Any]:
    """The proof of a deal as this viewer may see it now (also the verifier's input)."""
    started, ended = record.events[0].data, record.events[-1].data if record.over else {}
    dealt = dealing_order(record.events)
    seen = visible_hands(record.events, viewer, deal_over=record.over)
    schema = started.get("deck_schema", 1)
    pack = deal_pack(record)
    common = {
        "table_id": record.table_id,
        "deal_no": record.deal_no,
        "stacked": started["stacked"],
        "commitment": started.get("commitment"),
        "seed": ended.get("seed"),
        "pack": [str(card) for card in pack],
        "deck_schema": schema,
    }
    if schema >= fairdeck.SCHEMA and not started["stacked"]:
        return fair_proof(record, dealt, viewer, common, common["pack"])
    if started["stacked"] or ended.get("seed") is None:
        return {
            **common,
            "provable": False,
            "ok": None,
            "commitment_ok": None,
            "deck": None,
            "reshuffles": None,
            "reason": "This table was opened with a stacked deck (tests and demos): the card "
            "order was chosen, not shuffled from a seed, so there is nothing to prove.",
            "dealt": [_dealt_json(card, None, None, card.public or card.player in seen) for card in dealt],
        }
    batches = reshuffled(record.events)
    proof = verify_deal(ended["seed"], started["commitment"], [card.card for card in dealt], pack, batches)
    everything = viewer.role == "auditor"
    deck = [str(card) for card in Deck.shuffled(ended["seed"], pack, reshuffles=batches).stock]
    return {
        **common,
        "provable": True,
        "ok": proof.ok,
        "commitment_ok": proof.commitment_ok,
        "reason": None,
        "deck": deck if everything else None,
        "reshuffles": batches if everything else None,
        "dealt": [
            _dealt_json(card, str(expected), match, card.public or card.player in seen)
            for card, expected, match in zip(dealt, proof.expected, proof.matches, strict=True)
        ],
    }


def _dealt_json(card: DealtCard, expected: str | None, match: bool | None, visible: bool) -> dict[str, Any]:
    return {
        "index": card.index,
        "player": card.player,
        "card": card.card if visible else None,
        "expected": expected if visible else None,
        "matches": match,
    }


def provable_live(record: DealRecord) -> bool:
    """Whether a live deal has a proof yet: a committed deck (schema 2) opens each card as it is
    shown; the seed recipe (schema 1) proves nothing before its seed is revealed at the end."""
    started = record.events[0].data
    return started.get("deck_schema", 1) >= fairdeck.SCHEMA and not started["stacked"]


def deal_proof(*, table_id: UUID | str, deal_no: int, viewer: Viewer) -> dict[str, Any]:
    """The proof of a deal as this viewer may see it now: of a live deal of schema 2, the
    openings served so far; DealNotFinished for a live deal of the seed recipe or a stacked deck."""
    record = deal_load(table_id=table_id, deal_no=deal_no)
    if not record.over and not provable_live(record):
        raise DealNotFinished(deal_no)
    return proof_json(record, viewer)
