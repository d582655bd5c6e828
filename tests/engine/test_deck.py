"""The provable deck: DESIGN §2.7, GEN-04, D-GEN-02, D-IT-01 (EX-10), docs/deck.md."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pytest

from tables.engine import (
    STANDARD_PACK,
    Deck,
    DeckError,
    DeckExhausted,
    InvalidSeed,
    commitment,
    italian_pack,
    new_seed,
    parse_cards,
    reshuffle_seed,
    shuffled_deck,
    verify_deal,
)
from tables.engine.deck import draw_below, seed_key, shuffle

SEED = bytes(range(32)).hex()
VECTOR_FIRST_TEN = "Qs Ah Ks 4d Td 9s Jh 2h Ad Jc"
DOC = Path(__file__).resolve().parents[2] / "docs" / "deck.md"


def test_gen_04_standard_pack_is_52_distinct_cards():
    assert len(STANDARD_PACK) == len(set(STANDARD_PACK)) == 52


def test_new_seed_is_32_random_bytes_in_hex():
    first, second = new_seed(), new_seed()
    assert len(bytes.fromhex(first)) == 32
    assert first != second


def test_commitment_is_sha256_of_the_seed_bytes():
    assert commitment(SEED) == hashlib.sha256(bytes(range(32))).hexdigest()


def test_invalid_seed_is_rejected_with_a_code():
    for bad in ("xyz", "", "abc"):
        with pytest.raises(InvalidSeed) as error:
            shuffled_deck(bad)
        assert error.value.code == "invalid_seed"


def test_same_seed_same_order_and_a_permutation_of_the_pack():
    order = shuffled_deck(SEED)
    assert order == shuffled_deck(SEED)
    assert sorted(order) == list(STANDARD_PACK)


def test_different_seeds_give_different_orders():
    orders = {tuple(shuffled_deck(hashlib.sha256(bytes([i])).hexdigest())) for i in range(50)}
    assert len(orders) == 50


def test_test_vector_of_docs_deck_md():
    assert " ".join(map(str, shuffled_deck(SEED)[:10])) == VECTOR_FIRST_TEN
    assert VECTOR_FIRST_TEN in DOC.read_text()
    assert commitment(SEED) in DOC.read_text()
    assert reshuffle_seed(SEED, 1) in DOC.read_text()


def test_reference_snippet_in_docs_reproduces_the_engine():
    snippet = re.search(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert snippet is not None
    namespace: dict = {}
    exec(snippet.group(1), namespace)
    for seed in (SEED, *(hashlib.sha256(bytes([i])).hexdigest() for i in range(20))):
        assert namespace["shuffled_deck"](seed) == [str(card) for card in shuffled_deck(seed)]
        assert namespace["commitment"](seed) == commitment(seed)
    italian = [str(card) for card in italian_pack(4)]
    assert namespace["shuffled_deck"](SEED, italian) == [str(c) for c in shuffled_deck(SEED, italian_pack(4))]


def test_verify_deal_accepts_the_true_deal():
    dealt = shuffled_deck(SEED)[:12]
    proof = verify_deal(SEED, commitment(SEED), dealt)
    assert proof.ok
    assert proof.commitment_ok
    assert proof.matches == (True,) * 12
    assert proof.first_mismatch is None


def test_verify_deal_catches_a_swapped_card():
    dealt = [str(card) for card in shuffled_deck(SEED)[:12]]
    dealt[3], dealt[4] = dealt[4], dealt[3]
    proof = verify_deal(SEED, commitment(SEED), dealt)
    assert not proof.ok
    assert proof.commitment_ok
    assert proof.first_mismatch == 3
    assert proof.matches.count(False) == 2


def test_verify_deal_catches_a_wrong_commitment():
    dealt = shuffled_deck(SEED)[:5]
    proof = verify_deal(SEED, commitment(new_seed()), dealt)
    assert not proof.ok
    assert not proof.commitment_ok
    assert all(proof.matches)


def test_verify_deal_with_an_italian_pack():
    pack = italian_pack(5)
    dealt = shuffled_deck(SEED, pack)[:25]
    assert verify_deal(SEED, commitment(SEED), dealt, pack=pack).ok
    assert not verify_deal(SEED, commitment(SEED), dealt).ok


@pytest.mark.slow
def test_first_card_is_uniform_over_20000_seeds_chi_square():
    top = Counter()
    position_of_ace_of_spades = Counter()
    ace = parse_cards("As")[0]
    for i in range(20000):
        order = shuffle(STANDARD_PACK, hashlib.sha256(i.to_bytes(4, "big")).digest())
        top[order[0]] += 1
        position_of_ace_of_spades[order.index(ace)] += 1
    expected = 20000 / 52
    for counts in (top, position_of_ace_of_spades):
        assert len(counts) == 52
        chi_square = sum((counts[k] - expected) ** 2 / expected for k in counts)
        assert chi_square < 120  # 51 degrees of freedom: mean 51, p(>120) is about 1e-7


def test_bounded_draw_is_exactly_unbiased_on_a_small_word_size():
    """Every 4-bit word, for every modulus 1..16: accepted words hit each residue equally often."""
    for n in range(1, 17):
        hits = Counter()
        rejected = 0
        for word in range(16):
            try:
                hits[draw_below(n, iter([word]), word_bits=4)] += 1
            except StopIteration:  # the word was rejected and no other was offered
                rejected += 1
        assert set(hits) == set(range(n))
        assert len(set(hits.values())) == 1
        assert rejected == 16 % n


def test_bounded_draw_skips_rejected_words():
    # 2^32 mod 3 = 1, so the largest word is the only one rejected for n = 3.
    assert draw_below(3, iter([2**32 - 1, 7])) == 1


@pytest.mark.parametrize(
    ("players", "size", "lowest"),
    [
        (2, 24, 9),
        (3, 28, 8),
        (4, 32, 7),
        (5, 36, 6),
        (6, 40, 5),
        (7, 44, 4),
        (8, 48, 3),
        (9, 52, 2),
        (10, 52, 2),
    ],
)
def test_d_it_01_italian_pack_sizes_ex_10(players: int, size: int, lowest: int):
    pack = italian_pack(players)
    assert len(pack) == size
    assert min(card.rank for card in pack) == lowest


def test_italian_pack_refuses_other_player_counts():
    for players in (1, 11, True):
        with pytest.raises(DeckError):
            italian_pack(players)


def test_deck_deals_from_the_top_in_order():
    deck = Deck.shuffled(SEED)
    order = shuffled_deck(SEED)
    assert deck.commitment == commitment(SEED)
    assert deck.deal(2) == order[:2]
    assert deck.deal() == order[2:3]
    assert deck.remaining == 49
    assert deck.dealt == 3
    assert deck.peek(4) == order[3:7]
    assert deck.remaining == 49


def test_deck_rebuilds_from_seed_and_cards_dealt():
    deck = Deck.shuffled(SEED)
    deck.deal(17)
    rebuilt = Deck.shuffled(SEED, dealt=17)
    assert rebuilt.deal(10) == deck.deal(10)


def test_deck_refuses_to_deal_more_than_remain():
    deck = Deck.shuffled(SEED, italian_pack(2))
    deck.deal(20)
    with pytest.raises(DeckExhausted) as error:
        deck.deal(5)
    assert error.value.code == "deck_exhausted"


def test_stacked_deck_deals_in_the_given_order():
    deck = Deck.stacked(["As", "Kd", "2c"])
    assert deck.seed is None
    assert deck.commitment is None
    assert [str(card) for card in deck.deal(3)] == ["As", "Kd", "2c"]
    assert deck.remaining == 0


def test_stacked_deck_with_a_pack_continues_with_the_rest_of_the_pack():
    deck = Deck.stacked(["As", "2c"], pack=STANDARD_PACK)
    assert [str(card) for card in deck.deal(4)] == ["As", "2c", "2d", "2h"]
    assert deck.remaining == 48


def test_stacked_deck_rejects_duplicates_and_foreign_cards():
    with pytest.raises(ValueError, match="duplicate"):
        Deck.stacked(["As", "As"])
    with pytest.raises(DeckError):
        Deck.stacked(["2c"], pack=italian_pack(4))


def test_d_gen_02_reshuffled_discards_are_provable_and_rebuildable():
    deck = Deck.shuffled(SEED, italian_pack(2))
    hands = deck.deal(20)
    discards = hands[:10]
    deck.reshuffle(list(reversed(discards)))  # gathering order does not matter
    assert deck.remaining == 14
    expected_batch = shuffle(sorted(discards), seed_key(reshuffle_seed(SEED, 1)))
    assert deck.deal(14) == shuffled_deck(SEED, italian_pack(2))[20:] + expected_batch
    rebuilt = Deck.shuffled(SEED, italian_pack(2), dealt=20, reshuffles=[discards])
    assert rebuilt.deal(14)[4:] == expected_batch


def test_reshuffle_refuses_cards_still_in_the_stock():
    deck = Deck.shuffled(SEED)
    deck.deal(5)
    with pytest.raises(DeckError):
        deck.reshuffle(deck.peek(1))
