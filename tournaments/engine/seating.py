"""The provable seating: the tables' provable shuffle applied to the entrants.

At creation the service draws a secret seed and `TournamentCreated` publishes sha256(seed) (the
seed itself is sealed). At the start `TournamentStarted` reveals the seed, the entrants in
registration order (the input) and the shuffled order (the output): order = Fisher-Yates over the
entrants with the HMAC-SHA256 stream keyed by the seed, exactly the deck's shuffle (docs/deck.md),
so docs/verify_deal.py --seating checks both. Entrant i of the order sits at table i mod n, in
order, so every table gets the same number of players give or take one.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.deck import commitment, seed_key, shuffle

__all__ = ["commitment", "seat_order", "split_tables"]


def seat_order(seed: str, entrants: Sequence[str]) -> list[str]:
    return shuffle(list(entrants), seed_key(seed))


def split_tables(order: Sequence[str], tables: int) -> list[list[str]]:
    return [list(order[i::tables]) for i in range(tables)]
