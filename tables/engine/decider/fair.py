"""Fair deals in the decider (deck schema 2, `tables.engine.fairdeck`, docs/deck.md).

- An OpenTable carrying the service's secret deck commits the first deal's deck (`DeckCommitted`,
  deal_no 1). A StartDeal carrying the service's secret decks commits the *next* deal's deck now
  (deal_no + 1) and deals this one from the deck committed earlier, permuted by the seeds players
  contributed since (`SeedContributed`); a deal with no deck committed yet (on a table opened
  before this scheme) commits its own deck in the same command, with no player entropy
  (`DealStarted.entropy == []`, as for any deal nobody sent a seed for).
- `ContributeSeed` records a player's seed for the committed next deck: the first one of each
  player counts (a later one appends nothing), so the log grows by at most a seat per deal.
- The deal's cards come from `deck_of`: committed position perm[k] for the k-th card dealt (a short
  pack skips the positions of the cards outside it), then each reshuffled batch (D-GEN-02) mixed
  by the permutation key and committed afresh.

The secrets (the committed order and the salts) live in sealed event keys nobody is served;
tables.audit.fairness opens each card to exactly the viewers who may see it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tables.engine import fairdeck
from tables.engine.cards import Card, parse_cards
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.state import DealState, TableState, copy_with
from tables.engine.deck import PACKS, STANDARD_PACK, Deck

if TYPE_CHECKING:
    from tables.engine.decider.variants import Variant

# --- opening a table and starting a deal ----------------------------------------------------------


def opening_events(
    opened: ev.TableOpened, deck: fairdeck.SecretDeck | None, variant: Variant
) -> list[ev.Event]:
    """The first deal's deck committed as the table opens, so that the seeds players send as
    they sit down key its permutation (nothing for a stacked table, without a deck, or for a
    variant whose pack is not part of the committed 52 cards: none today, `committed_pack`)."""
    if deck is None or opened.stacked or not committed_pack(variant):
        return []
    return [committed_event(1, deck)]


def deal_events(state: TableState, started: ev.DealStarted, c: cmd.StartDeal) -> list[ev.Event]:
    """DealStarted as schema 2 when the service sent decks (else as given: the seed recipe, or a
    stacked deck, which has nothing to commit), framed by the commitments it needs."""
    if c.next_deck is None or started.stacked or not committed_pack(state.rules):
        return [started]
    events: list[ev.Event] = []
    pending = state.committed
    if pending and pending[0] == started.deal_no:
        root, seeds = pending[1], pending[4]
    else:
        if c.deck is None:
            raise DomainError("invalid_seed", "no deck is committed for this deal and none was sent")
        first = committed_event(started.deal_no, c.deck)
        events.append(first)
        root, seeds = first.root, ()
    events.append(
        replace(
            started,
            seed=None,
            commitment=None,
            deck_schema=fairdeck.SCHEMA,
            root=root,
            entropy=[{"player": player, "client_seed": seed} for player, seed in seeds],
        )
    )
    events.append(committed_event(started.deal_no + 1, c.next_deck))
    return events


def committed_event(deal_no: int, deck: fairdeck.SecretDeck) -> ev.DeckCommitted:
    try:
        checked = fairdeck.check_secret_deck(deck)
    except (ValueError, TypeError) as error:
        raise DomainError("invalid_seed", f"not a deck to commit: {error}") from None
    return ev.DeckCommitted(
        deal_no=deal_no,
        root=fairdeck.merkle_root(fairdeck.commitments(checked)),
        size=len(checked.cards),
        cards=list(checked.cards),
        salts=list(checked.salts),
    )


# --- player entropy -------------------------------------------------------------------------------


def contribute_seed(state: TableState, c: cmd.ContributeSeed, now: datetime) -> list[ev.Event]:
    """A seated player's seed for the next committed deck. Nothing ([]) when there is none, he
    gave one already, or he is no longer seated at an open table (the command it rode on may have
    ended the game or closed the table: that must not refuse the command)."""
    seed = fairdeck.check_client_seed(c.client_seed)
    if seed is None:
        raise DomainError("invalid_client_seed", "a client_seed is 32 to 128 hex digits")
    pending = state.committed
    if state.status != "open" or state.seat_of(c.player_id) is None or not pending:
        return []
    if any(player == c.player_id for player, _ in pending[4]):
        return []
    return [ev.SeedContributed(deal_no=pending[0], player=c.player_id, client_seed=seed)]


# --- folds ----------------------------------------------------------------------------------------


def fold_committed(state: TableState, e: ev.DeckCommitted) -> TableState:
    return copy_with(state, committed=(e.deal_no, e.root, tuple(e.cards), tuple(e.salts), ()))


def fold_seed(state: TableState, e: ev.SeedContributed) -> TableState:
    pending = state.committed
    if not pending or pending[0] != e.deal_no:
        return state
    return copy_with(state, committed=(*pending[:4], (*pending[4], (e.player, e.client_seed))))


def started(state: TableState, e: ev.DealStarted) -> TableState:
    """The deal takes the deck committed for it and fixes its permutation (schema 2 only)."""
    if e.deck_schema < fairdeck.SCHEMA or state.deal is None:
        return state
    pending = state.committed
    assert pending, "a schema-2 deal starts from a committed deck"
    assert (pending[0], pending[1]) == (e.deal_no, e.root)
    seeds = [(item["player"], item["client_seed"]) for item in e.entropy or ()]
    key = fairdeck.permutation_key(e.root or "", seeds)
    return copy_with(state, deal=copy_with(state.deal, fair=(e.root, key, pending[2])), committed=())


FOLDS: dict[type[ev.Event], Callable[[TableState, Any], TableState]] = {
    ev.DeckCommitted: fold_committed,
    ev.SeedContributed: fold_seed,
}


# --- the deck in play -----------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _sequence(cards: tuple[str, ...], key: str, pack: tuple[Card, ...]) -> tuple[Card, ...]:
    short = None if len(pack) == len(STANDARD_PACK) else {str(card) for card in pack}
    return tuple(parse_cards(fairdeck.dealing_sequence(cards, key, short)))


def deck_of(deal: DealState, pack: Sequence[Card] = STANDARD_PACK) -> Deck:
    """The schema-2 deck: the committed cards in dealing order, then the reshuffled batches. A
    short pack (Italian poker, D-IT-01) deals the committed cards of its pack in that order and
    skips the others: they are out of play (and their openings public, tables.audit.openings)."""
    _root, key, cards = deal.fair
    dealt_from = tuple(pack)
    sequence = _sequence(tuple(cards), key, dealt_from)
    return Deck.committed(sequence, key, pack=dealt_from, reshuffles=deal.reshuffles)


def committed_pack(variant: Variant) -> bool:
    """Whether the variant's deals are committed card by card (deck schema 2): every pack the
    engine knows is the standard 52 cards or a part of them, so the whole 52-card pack is
    committed (the next deal's commitment cannot depend on who will be dealt in) and a short pack
    (Italian poker by players, D-IT-01) is dealt from it by skipping the cards outside it."""
    return variant.deck in PACKS


def unused_salts(salts: Sequence[str], events: Sequence[ev.Event]) -> tuple[str, ...]:
    """The salts of a decision not used by `events` yet: each reshuffled stock took the first
    ones left, one per slot, so that no salt ever commits two slots."""
    used = sum(len(e.salts or ()) for e in events if isinstance(e, ev.StockReshuffled))
    return tuple(salts[used:])


def stock_reshuffled(
    deal: DealState, deck: Deck, batch: list[str], salts: Sequence[str]
) -> ev.StockReshuffled:
    """D-GEN-02: the event of a reshuffle just made on `deck`; schema 2 commits its new slots."""
    event = ev.StockReshuffled(
        deal_no=deal.deal_no, generation=len(deck.reshuffles), count=len(batch), cards=batch
    )
    if not deal.fair:
        return event
    if len(salts) < len(batch):
        raise DomainError("invalid_seed", "a reshuffled stock needs a salt per card from the service")
    slots = [str(card) for card in deck.stock[len(deck.stock) - len(batch) :]]
    fresh = [fairdeck.check_salt(salt) for salt in salts[: len(batch)]]
    leaves = [fairdeck.card_commitment(salt, card) for salt, card in zip(fresh, slots, strict=True)]
    root = fairdeck.merkle_root(leaves)
    return replace(event, root=root, salts=fresh)
