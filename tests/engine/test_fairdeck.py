"""Fair deals (docs/deck.md §10): per-card commitments under an RFC 9162 Merkle tree, the public
permutation keyed by players' seeds, and the decider dealing schema-2 deals from them."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine import fairdeck
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.events import CARDS_DEALT, DEAL_STARTED, DECK_COMMITTED
from tables.engine.decider.fair import unused_salts
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.decider.visibility import Viewer, redact_event, secret_keys
from tables.engine.deck import STANDARD_PACK, commitment, italian_pack, shuffled_deck
from tests.engine.decider.helpers import SEED, Session, of_type, one, table

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


def split_root(leaves: list[bytes]) -> bytes:
    """MTH as RFC 9162 §2.1.1 defines it: split at the largest power of two below n."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + split_root(leaves[:k]) + split_root(leaves[k:])).digest()


@given(st.lists(st.binary(min_size=32, max_size=32), max_size=70))
def test_the_merkle_root_is_rfc_9162s_for_every_size(leaves: list[bytes]) -> None:
    assert fairdeck._tree_hash(leaves) == split_root(leaves)


def test_the_services_shuffle_is_uniform_over_every_order() -> None:
    """Each of the 6 orders of 3 cards comes out 1/6 of the time (60,000 shuffles: a 5% deviation
    in any of them would be some 12 standard deviations), and each card of the pack ends at every
    position (the rejection sampling leaves no modulo bias)."""
    orders = Counter()
    for _ in range(60_000):
        cards = ["As", "Kd", "2c"]
        fairdeck.csprng_shuffle(cards)
        orders[tuple(cards)] += 1
    assert len(orders) == 6
    assert all(abs(count - 10_000) < 500 for count in orders.values())
    where = Counter()
    for _ in range(2_000):
        cards = list(PACK)
        fairdeck.csprng_shuffle(cards)
        where[cards.index("As")] += 1
    assert len(where) >= 50  # 52 positions, each about 38 times


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


def test_a_short_pack_is_dealt_in_permutation_order_skipping_the_cards_outside_it() -> None:
    deck, key = secret_deck(5).cards, "ab" * 32
    pack = {str(card) for card in italian_pack(4)}  # D-IT-01: 7s to aces
    positions = fairdeck.in_play(deck, key, pack)
    assert positions == [p for p in fairdeck.permutation(key) if deck[p] in pack]
    assert fairdeck.in_play(deck, key) == list(fairdeck.permutation(key))
    assert fairdeck.dealing_sequence(deck, key, pack) == [deck[p] for p in positions]
    assert sorted(fairdeck.dealing_sequence(deck, key, pack)) == sorted(pack)


@pytest.mark.parametrize("players", ["abcd", "abcdef"])
def test_d_it_01_italian_poker_commits_the_whole_pack_and_deals_its_short_pack_from_it(players: str) -> None:
    """The next deal's commitment is the same 52 cards whoever will be dealt in; the deal takes the
    committed cards of the short pack for its players in their committed (permuted) order."""
    session = table(players, variant="italian", ante=5, min_buy_in=500, buy_in=5000)
    events = session.do(cmd.StartDeal(deck=secret_deck(1), next_deck=secret_deck(2)))
    commits = of_type(events, DECK_COMMITTED)
    assert [(e.deal_no, e.size) for e in commits] == [(1, 52), (2, 52)]
    assert commits[1].root == fairdeck.merkle_root(fairdeck.commitments(secret_deck(2)))
    started = one(events, DEAL_STARTED)
    assert (started.deck_schema, started.seed, started.commitment) == (2, None, None)
    pack = {str(card) for card in italian_pack(len(players))}
    key = fairdeck.permutation_key(started.root, [])
    sequence = fairdeck.dealing_sequence(secret_deck(1).cards, key, pack)
    hands = {e.player: e.cards for e in of_type(events, CARDS_DEALT)}
    order = started.participants
    rounds = [hands[player][r] for r in range(5) for player in order]  # one card at a time (IT-04)
    assert rounds == sequence[: 5 * len(players)]
    assert set(rounds) <= pack


def test_an_italian_deal_begun_by_the_seed_recipe_keeps_dealing_by_it() -> None:
    """A StartDeal with a seed and no decks (an old log's) is a deal of schema 1 on the short pack."""
    session = table("abcd", variant="italian", ante=5, min_buy_in=500, buy_in=5000)
    events = session.do(cmd.StartDeal(None, SEED))
    started = one(events, DEAL_STARTED)
    assert (started.deck_schema, started.commitment) == (1, commitment(SEED))
    hands = {e.player: e.cards for e in of_type(events, CARDS_DEALT)}
    rounds = [hands[player][r] for r in range(5) for player in started.participants]
    assert rounds == [str(card) for card in shuffled_deck(SEED, italian_pack(4))[:20]]


def test_the_salts_of_a_decision_commit_each_slot_once() -> None:
    salts = fairdeck.new_salts(6)
    first = ev.StockReshuffled(
        deal_no=1, generation=1, count=2, cards=["As", "Kd"], root="r", salts=[*salts[:2]]
    )
    assert unused_salts(salts, []) == salts
    assert unused_salts(salts, [first]) == salts[2:]
    assert unused_salts(salts, [first, first]) == salts[4:]


def test_d_gen_02_a_reshuffled_stocks_salts_are_sealed_like_its_cards() -> None:
    """Served beside the stock's root, the salts would let anyone try the few discards it can hold
    until the root comes out: they are secret facts, like the cards, auditors' after the deal."""
    data = {
        "deal_no": 1,
        "generation": 1,
        "count": 2,
        "cards": ["As", "Kd"],
        "root": "ab" * 32,
        "salts": ["00" * 16] * 2,
    }
    assert secret_keys(ev.STOCK_RESHUFFLED, data) == ("cards", "salts")
    for viewer in (Viewer("a"), Viewer(None), Viewer(None, "auditor")):
        served = redact_event(ev.STOCK_RESHUFFLED, data, viewer, deal_over=False)
        assert (served["cards"], served["salts"], served["root"]) == (None, None, data["root"])
    after = redact_event(ev.STOCK_RESHUFFLED, data, Viewer(None, "auditor"), deal_over=True)
    assert after["salts"] == data["salts"]
