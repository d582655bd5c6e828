"""Fair deals (docs/deck.md §10): per-card commitments under an RFC 9162 Merkle tree, the public
permutation keyed by players' seeds, and the decider dealing schema-2 deals from them."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine import fairdeck
from tables.engine.decider import commands as cmd
from tables.engine.decider.events import CARDS_DEALT, DEAL_STARTED, DECK_COMMITTED
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.deck import STANDARD_PACK
from tests.engine.decider.helpers import Session, of_type, one, table

PACK = [str(card) for card in STANDARD_PACK]
TEST_SALT = "000102030405060708090a0b0c0d0e0f"


def secret_deck(seed: int) -> fairdeck.SecretDeck:
    rng = random.Random(seed)
    cards = list(PACK)
    rng.shuffle(cards)
    return fairdeck.SecretDeck(tuple(cards), tuple(f"{rng.getrandbits(128):032x}" for _ in cards))


def test_the_test_vectors_of_docs_deck_md() -> None:
    assert fairdeck.card_commitment(TEST_SALT, "As") == hashlib.sha256(bytes(range(16)) + b"As").hexdigest()
    assert fairdeck.card_commitment(TEST_SALT, "As") == (
        "f988a2eaef90de7a80945e6b5b76cf33e107f4554ac9580e3396c5185363affc"
    )
    salts = [i.to_bytes(16, "big").hex() for i in range(52)]  # the pack in index order
    root = fairdeck.merkle_root([fairdeck.card_commitment(s, c) for s, c in zip(salts, PACK, strict=True)])
    assert root == "bf4fb73b860c02f0ce65cab9bfb47b36226721615c87d07e421ed778fe3a08b1"
    quiet = fairdeck.permutation_key(root, [])
    assert quiet == "21eb98604611f188a76bfa231fa2cd519dafccc3e18d0120e5a73a71d9c29564"
    assert fairdeck.permutation(quiet)[:10] == (46, 26, 29, 4, 40, 44, 3, 7, 14, 23)
    seeded = fairdeck.permutation_key(root, [("7", "00" * 16)])
    assert seeded == "500d2e80571748616f03dced634abd0dbbcc9142d2d35d22d7eb697dcdd62bb1"
    assert fairdeck.permutation(seeded)[:10] == (19, 40, 26, 50, 43, 7, 47, 34, 0, 27)
    assert fairdeck.merkle_root([]) == hashlib.sha256(b"").hexdigest()  # RFC 9162: MTH({})


@given(size=st.integers(1, 70), data=st.data())
def test_every_inclusion_path_proves_its_leaf_and_nothing_else(size: int, data: st.DataObject) -> None:
    leaves = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(size)]
    root = fairdeck.merkle_root(leaves)
    index = data.draw(st.integers(0, size - 1))
    path = fairdeck.inclusion_path(index, leaves)
    assert fairdeck.verify_inclusion(root, size, index, leaves[index], path)
    other = data.draw(st.integers(0, size - 1))
    if other != index:
        assert not fairdeck.verify_inclusion(root, size, other, leaves[index], path)
        assert not fairdeck.verify_inclusion(root, size, index, leaves[other], path)
    assert not fairdeck.verify_inclusion(root, size, size, leaves[index], path)


def test_the_service_draws_independent_128_bit_salts_and_a_full_pack() -> None:
    decks = [fairdeck.new_secret_deck() for _ in range(3)]
    salts = [salt for deck in decks for salt in deck.salts]
    assert len(set(salts)) == len(salts) == 156
    assert all(len(bytes.fromhex(salt)) == 16 for salt in salts)
    assert all(sorted(deck.cards) == sorted(PACK) for deck in decks)
    assert fairdeck.check_secret_deck(decks[0]) == decks[0]
    with pytest.raises(fairdeck.FairDeckError):
        fairdeck.check_secret_deck(fairdeck.SecretDeck((*decks[0].cards[:-1], "As"), decks[0].salts))


def play_two(seeds: list[tuple[str, str]]) -> tuple[Session, list[str]]:
    """Deal 1 commits deal 2's deck (the same in every call); `seeds` are contributed during deal 1;
    the cards of deal 2 in the order dealt."""
    session = table("abc")
    session.do(cmd.StartDeal(deck=secret_deck(1), next_deck=secret_deck(2)))
    for player, seed in seeds:
        session.do(cmd.ContributeSeed(player, seed))
    while session.state.live is not None:
        session.do(cmd.Declare(session.state.live.awaiting[0], 1, "out"))
    events = session.do(cmd.StartDeal(deck=secret_deck(3), next_deck=secret_deck(4)))
    return session, [card for e in of_type(events, CARDS_DEALT) for card in e.cards]


def test_a_client_seed_changes_the_order_of_the_same_committed_deck() -> None:
    quiet, without = play_two([])
    seeded, with_a = play_two([("a", "11" * 32)])
    other, with_b = play_two([("a", "22" * 32)])
    roots = {session.state.deal.fair[0] for session in (quiet, seeded, other)}
    assert len(roots) == 1  # the same commitment
    assert len({tuple(without), tuple(with_a), tuple(with_b)}) == 3
    started = one(seeded.events[-20:], DEAL_STARTED)
    assert started.entropy == [{"player": "a", "client_seed": "11" * 32}]
    key = fairdeck.permutation_key(started.root, [("a", "11" * 32)])
    assert seeded.state.deal.fair[1] == key


def test_deal_one_commits_itself_and_deal_two_then_says_whether_players_contributed() -> None:
    session = table("abc")
    events = session.do(cmd.StartDeal(deck=secret_deck(1), next_deck=secret_deck(2)))
    commits = of_type(events, DECK_COMMITTED)
    assert [(e.deal_no, e.size) for e in commits] == [(1, 52), (2, 52)]
    assert [e.type for e in events][:4] == ["DeckCommitted", "DealStarted", "DeckCommitted", "AntesPosted"]
    started = one(events, DEAL_STARTED)
    assert (started.deck_schema, started.seed, started.commitment, started.entropy) == (2, None, None, [])
    assert started.root == commits[0].root == fairdeck.merkle_root(fairdeck.commitments(secret_deck(1)))
    dealt = [card for e in of_type(events, CARDS_DEALT) for card in e.cards]
    key = fairdeck.permutation_key(started.root, [])
    sequence = fairdeck.dealing_sequence(secret_deck(1).cards, key)
    assert sorted(dealt) == sorted(sequence[:6])
    assert state_from_json(state_to_json(session.state)) == session.state  # snapshots keep the next deck


def test_only_a_seated_players_first_seed_counts_and_a_bad_one_is_refused() -> None:
    session = table("abc")
    session.do(cmd.StartDeal(deck=secret_deck(1), next_deck=secret_deck(2)))
    assert session.do(cmd.ContributeSeed("a", "aa" * 16))
    assert session.do(cmd.ContributeSeed("a", "bb" * 16)) == []
    assert session.do(cmd.ContributeSeed("zz", "cc" * 16)) == []  # not seated
    assert session.fails(cmd.ContributeSeed("b", "not hex")) == "invalid_client_seed"
    assert session.fails(cmd.ContributeSeed("b", "ab" * 8)) == "invalid_client_seed"  # 64 bits
    assert session.state.committed[4] == (("a", "aa" * 16),)


def test_a_stacked_table_commits_nothing_and_deals_its_stacked_deck() -> None:
    session = table("ab", decks=[["As", "Kd", "Qh", "Js"]])
    events = session.do(cmd.StartDeal(deck=secret_deck(1), next_deck=secret_deck(2)))
    assert not of_type(events, DECK_COMMITTED)
    started = one(events, DEAL_STARTED)
    assert (started.stacked, started.deck_schema) == (True, 1)
    assert [e.cards for e in of_type(events, CARDS_DEALT)] == [["As", "Qh"], ["Kd", "Js"]]
