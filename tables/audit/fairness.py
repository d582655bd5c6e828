"""The fairness proof of a finished deal (DESIGN §2.7): commitment, revealed seed, every card.

DealStarted published sha256(seed); DealEnded revealed the seed. The proof recomputes the deck
with the engine's `verify_deal` and checks every card dealt, in the order the cards left the
deck (round by round, from the dealer's left, D-G2-01), against the card the seed puts there.

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
from tables.engine import shuffled_deck, verify_deal
from tables.engine.cards import Card
from tables.engine.decider import events as ev
from tables.engine.decider.events import parse
from tables.engine.decider.evolve import evolve
from tables.engine.decider.program import deck_for
from tables.engine.decider.view import Viewer, redact_event
from tables.errors import DealNotFinished


@dataclass(frozen=True, slots=True)
class DealtCard:
    index: int          # 0 = the top card of the deck, the first card dealt
    player: str
    card: str


def dealing_order(events: tuple[StoredEvent, ...] | list[StoredEvent]) -> list[DealtCard]:
    """Every card dealt, in the order it left the deck.

    A deal step is a run of CardsDealt events, one per player from the dealer's left; each event
    holds the player's whole hand, so the step's new cards are the hand minus what he held. The
    program deals them one at a time round the table (program._deal), which is the order here."""
    held: dict[str, int] = {}
    step: list[tuple[str, list[str]]] = []
    order: list[tuple[str, str]] = []
    for event in events:
        if event.type != ev.CARDS_DEALT or any(player == event.data["player"] for player, _ in step):
            order += _round_robin(step)
            step = []
        if event.type == ev.CARDS_DEALT:
            player, cards = event.data["player"], event.data["cards"]
            step.append((player, cards[held.get(player, 0):]))
            held[player] = len(cards)
    order += _round_robin(step)
    return [DealtCard(index, player, card) for index, (player, card) in enumerate(order)]


def _round_robin(step: list[tuple[str, list[str]]]) -> list[tuple[str, str]]:
    rounds = max((len(cards) for _, cards in step), default=0)
    return [(player, cards[r]) for r in range(rounds) for player, cards in step if r < len(cards)]


def visible_hands(events: tuple[StoredEvent, ...], viewer: Viewer, *, deal_over: bool) -> set[str]:
    """The players whose dealt cards this viewer may see (per the engine's redact_event)."""
    return {event.data["player"] for event in events if event.type == ev.CARDS_DEALT
            and redact_event(event.type, event.data, viewer, deal_over=deal_over)["cards"] is not None}


def deal_pack(record: DealRecord) -> tuple[Card, ...]:
    """The pack this deal was dealt from, as the engine chose it."""
    state = evolve(record.before, parse(record.events[0].type, record.events[0].data))
    assert state.deal is not None
    return deck_for(state, state.deal).pack


def proof_json(record: DealRecord, viewer: Viewer) -> dict[str, Any]:
    """The proof of a finished deal as this viewer may see it (also the verifier's input)."""
    started, ended = record.events[0].data, record.events[-1].data
    dealt = dealing_order(record.events)
    seen = visible_hands(record.events, viewer, deal_over=True)
    pack = deal_pack(record)
    common = {"table_id": record.table_id, "deal_no": record.deal_no, "stacked": started["stacked"],
              "commitment": started.get("commitment"), "seed": ended.get("seed"),
              "pack": [str(card) for card in pack]}
    if started["stacked"] or ended.get("seed") is None:
        return {**common, "provable": False, "ok": None, "commitment_ok": None, "deck": None,
                "reason": "This table was opened with a stacked deck (tests and demos): the card "
                          "order was chosen, not shuffled from a seed, so there is nothing to prove.",
                "dealt": [_dealt_json(card, None, None, card.player in seen) for card in dealt]}
    proof = verify_deal(ended["seed"], started["commitment"], [card.card for card in dealt], pack)
    everything = viewer.role == "auditor"
    return {**common, "provable": True, "ok": proof.ok, "commitment_ok": proof.commitment_ok,
            "reason": None,
            "deck": [str(card) for card in shuffled_deck(ended["seed"], pack)] if everything else None,
            "dealt": [_dealt_json(card, str(expected), match, card.player in seen)
                      for card, expected, match in zip(dealt, proof.expected, proof.matches, strict=True)]}


def _dealt_json(card: DealtCard, expected: str | None, match: bool | None, visible: bool) -> dict[str, Any]:
    return {"index": card.index, "player": card.player, "card": card.card if visible else None,
            "expected": expected if visible else None, "matches": match}


def deal_proof(*, table_id: UUID | str, deal_no: int, viewer: Viewer) -> dict[str, Any]:
    """The proof of a finished deal; DealNotFinished while it is being played."""
    record = deal_load(table_id=table_id, deal_no=deal_no)
    if not record.over:
        raise DealNotFinished(deal_no)
    return proof_json(record, viewer)
