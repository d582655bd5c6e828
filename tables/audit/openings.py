"""The proof of a deal of deck schema 2 (docs/deck.md): each card opened to exactly its viewers,
exactly when they may see it, during the deal as after it.

A card's *opening* is (dealing index, tree, position, card, salt, inclusion path): the salt and
the card hash to the leaf committed at that position of the tree whose root was published before
the deal (tree 0, `DealStarted.root`) or before the reshuffled stock was drawn from (tree g,
`StockReshuffled.root` of the g-th reshuffle, D-GEN-02). Which openings a viewer gets is the
visibility rule itself: a dealt card is opened to a viewer exactly when some event of the deal so
far, as `redact_event` serves it to him now, shows that card while it occupied that slot (his own
cards as soon as they are dealt, drawn or passed to him; face-up and shown cards to everyone once
shown; a private comparison's hands to the players compared once compared; every card to an
auditor once the deal is over, never before). The undealt stock and the committed order are
opened to auditors only, after the deal.

A short pack (Italian poker, D-IT-01) is dealt from the 52 committed cards by skipping, in
permutation order, the positions of the cards outside it (`fairdeck.in_play`). Those cards are out
of play: their openings (`out_of_play`) are served to everyone from the deal's start, so anyone
recomputes which position each dealing index took.

The public part (root, the players' seeds, the permutation, which index went to whom) is the same
for everyone: anyone can recompute the permutation, and it says nothing about the cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ledger.models import Event as EventRow
from ledger.store import StoredEvent
from tables.audit.deals import DealRecord
from tables.engine import fairdeck
from tables.engine.decider import events as ev
from tables.engine.decider.view import Viewer, redact_event
from tables.engine.deck import Deck

TREE_DECK = 0
_CARD_KEYS = ("cards", "card", "gave", "received", "discarded", "drawn", "deck_cards")


def committed_deck(record: DealRecord) -> dict[str, Any]:
    """The deal's committed deck, server-side only: as the state before the deal holds it (its
    DeckCommitted precedes DealStarted), else the stored DeckCommitted itself."""
    pending = record.before.committed
    if pending and pending[0] == record.deal_no:
        return {"root": pending[1], "cards": list(pending[2]), "salts": list(pending[3])}
    rows = EventRow.objects.filter(
        stream=f"table-{record.table_id}", type=ev.DECK_COMMITTED, data__deal_no=record.deal_no
    ).order_by("version")
    found = list(rows.values_list("data", flat=True)[:1])
    assert found, f"deal {record.deal_no} of table {record.table_id} has no committed deck"
    return dict(found[0])


def served_cards(event: StoredEvent, viewer: Viewer, *, deal_over: bool) -> Iterator[str]:
    """Every card `event` shows this viewer (as redact_event serves it to him now)."""
    data = redact_event(event.type, event.data, viewer, deal_over=deal_over)
    for key in _CARD_KEYS:
        value = data.get(key)
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (card for card in value if isinstance(card, str))
    for hand in data.get("hands") or ():
        yield from hand.get("cards") or ()
    ghost = data.get("ghost")
    if isinstance(ghost, dict):
        yield from ghost.get("cards") or ()


def visible_indices(
    events: Sequence[StoredEvent], dealt: Sequence[Any], viewer: Viewer, *, deal_over: bool = True
) -> set[int]:
    """The dealing indices whose card this viewer was shown while the card sat in that slot: for
    each card an event shows him, the latest slot that card was dealt into up to that event."""
    by_card: dict[str, list[tuple[int, int]]] = {}
    for card in dealt:
        by_card.setdefault(card.card, []).append((card.version, card.index))
    visible: set[int] = set()
    for event in events:
        for card in served_cards(event, viewer, deal_over=deal_over):
            slots = [index for version, index in by_card.get(card, ()) if version <= event.version]
            if slots:
                visible.add(slots[-1])
    return visible


def _leaves(cards: Sequence[str], salts: Sequence[str]) -> list[str]:
    return [fairdeck.card_commitment(salt, card) for salt, card in zip(salts, cards, strict=True)]


def _trees(
    committed: dict[str, Any], key: str, events: Sequence[StoredEvent], pack: set[str] | None
) -> list[dict[str, Any]]:
    """Tree 0 (the committed deck) and one tree per reshuffle: cards per slot, salts, leaves,
    root, the first dealing index it serves and, per dealing index, the slot it takes."""
    cards, salts = list(committed["cards"]), list(committed["salts"])
    positions = fairdeck.in_play(cards, key, pack)
    trees = [
        {
            "tree": TREE_DECK,
            "root": committed["root"],
            "cards": cards,
            "salts": salts,
            "leaves": _leaves(cards, salts),
            "first": 0,
            "positions": positions,
            "dealing": [cards[position] for position in positions],
        }
    ]
    batches: list[list[str]] = []
    first = len(positions)
    for event in events:
        if event.type != ev.STOCK_RESHUFFLED:
            continue
        batches.append(list(event.data["cards"]))
        sequence = [str(card) for card in Deck.committed((), key, reshuffles=batches).stock]
        slots = sequence[len(sequence) - len(batches[-1]) :]
        fresh = list(event.data.get("salts") or ())
        trees.append(
            {
                "tree": event.data["generation"],
                "root": event.data.get("root"),
                "cards": slots,
                "salts": fresh,
                "leaves": _leaves(slots, fresh),
                "first": first,
                "positions": list(range(len(slots))),
                "dealing": slots,
                "recorded": batches[-1],
            }
        )
        first += len(slots)
    return trees


def _opened(tree: dict[str, Any], position: int) -> dict[str, Any]:
    return {
        "tree": tree["tree"],
        "position": position,
        "card": tree["cards"][position],
        "salt": tree["salts"][position],
        "path": fairdeck.inclusion_path(position, tree["leaves"]),
    }


def _opening(trees: list[dict[str, Any]], index: int, player: str | None) -> dict[str, Any]:
    tree = next(t for t in reversed(trees) if t["first"] <= index)
    return {"index": index, "player": player, **_opened(tree, tree["positions"][index - tree["first"]])}


def out_of_play(deck: dict[str, Any]) -> list[dict[str, Any]]:
    """The openings of the committed cards outside a short pack, in position order: public."""
    in_play = set(deck["positions"])
    return [_opened(deck, position) for position in range(len(deck["cards"])) if position not in in_play]


def fair_proof(
    record: DealRecord, dealt: Sequence[Any], viewer: Viewer, common: dict[str, Any], pack: Sequence[str]
) -> dict[str, Any]:
    """The schema-2 proof of a deal as this viewer may see it now (docs/verify_deal.py's input):
    of a live deal, the openings served so far (`finished` false); auditors get the whole deck
    only once the deal is over."""
    started = record.events[0].data
    committed = committed_deck(record)
    seeds = [(item["player"], item["client_seed"]) for item in started.get("entropy") or ()]
    key = fairdeck.permutation_key(started["root"], seeds)
    short = set(pack) if len(pack) < len(committed["cards"]) else None
    trees = _trees(committed, key, record.events, short)
    sequence = [card for tree in trees for card in tree["dealing"]]
    auditor = viewer.role == "auditor" and record.over
    if auditor:
        seen = set(range(len(sequence)))
    else:
        seen = visible_indices(record.events, dealt, viewer, deal_over=record.over)
    seen |= {card.index for card in dealt if card.public}
    holders = {card.index: card.player for card in dealt}
    openings = [_opening(trees, index, holders.get(index)) for index in sorted(seen)]
    matches = [card.index < len(sequence) and sequence[card.index] == card.card for card in dealt]
    root_ok = fairdeck.merkle_root(trees[0]["leaves"]) == started["root"] == committed["root"]
    return {
        **common,
        "provable": True,
        "finished": record.over,
        "deck_schema": fairdeck.SCHEMA,
        "root": started["root"],
        "size": len(committed["cards"]),
        "entropy": [{"player": p, "client_seed": s} for p, s in seeds],
        "player_entropy": bool(seeds),
        "permutation_key": key,
        "permutation": list(fairdeck.permutation(key, len(committed["cards"]))),
        "ok": root_ok and all(matches),
        "commitment_ok": root_ok,
        "reason": None,
        "deck": sequence if auditor else None,
        "reshuffles": [t["recorded"] for t in trees[1:]] if auditor else None,
        "stocks": [
            {"generation": t["tree"], "count": len(t["cards"]), "root": t["root"], "first_index": t["first"]}
            for t in trees[1:]
        ],
        "dealt": [
            {
                "index": card.index,
                "player": card.player,
                "card": card.card if card.index in seen else None,
                "expected": sequence[card.index] if card.index in seen else None,
                "matches": match,
            }
            for card, match in zip(dealt, matches, strict=True)
        ],
        "out_of_play": out_of_play(trees[0]),
        "openings": openings,
    }
