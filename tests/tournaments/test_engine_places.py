"""Places and prizes (D-GEN-01): pure, with hypothesis properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.engine.places import Placing, place_amounts, placings, prizes


def test_same_deal_eliminations_share_places_by_starting_stacks() -> None:
    result = placings(12, [("a", 300), ("b", 500), ("c", 300)])
    assert [(p.player, p.place, p.last) for p in result] == [("b", 10, 10), ("a", 11, 12), ("c", 11, 12)]


def test_place_amounts_pay_every_chip_odd_chips_to_the_best_places() -> None:  # D-GEN-01
    assert place_amounts(1001, [50, 30, 20]) == [501, 300, 200]
    assert place_amounts(7, [34, 33, 33]) == [3, 2, 2]


def test_tied_places_split_their_sum_odd_chip_nearest_the_dealers_left() -> None:  # D-GEN-01
    groups = [[Placing("w", 1, 1, 0)], [Placing("x", 2, 3, 50), Placing("y", 2, 3, 50)]]
    assert prizes(1001, [50, 30, 20], groups) == {"w": 501, "x": 250, "y": 250}
    assert prizes(1003, [50, 30, 20], groups) == {"w": 502, "x": 251, "y": 250}


@st.composite
def finishes(draw: st.DrawFn) -> tuple[int, list[int], list[list[Placing]]]:
    """A whole tournament's places: random tie groups over places 1..n and a payout table."""
    n = draw(st.integers(2, 30))
    paid = draw(st.integers(1, n))
    cuts = sorted(draw(st.lists(st.integers(1, 99), min_size=paid - 1, max_size=paid - 1)))
    percents = [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    if any(p < 1 for p in percents):
        percents = [100]
    groups, place, player = [], 1, 0
    while place <= n:
        size = draw(st.integers(1, n - place + 1))
        groups.append([Placing(f"p{player + i}", place, place + size - 1, 0) for i in range(size)])
        player += size
        place += size
    pool = draw(st.integers(0, 10**9))
    return pool, percents, groups


@given(finishes())
def test_prizes_pay_out_the_whole_pool_and_ties_differ_by_at_most_one(case: tuple) -> None:
    pool, percents, groups = case
    prize = prizes(pool, percents, groups)
    assert sum(prize.values()) == pool  # every cash chip
    for group in groups:
        shares = [prize[p.player] for p in group]
        assert max(shares) - min(shares) <= 1  # D-GEN-01
        assert shares == sorted(shares, reverse=True)  # odd chips first in order


@given(st.integers(2, 200), st.lists(st.integers(0, 10_000), min_size=1, max_size=12))
def test_placings_cover_exactly_the_places_of_the_deal(remaining: int, stacks: list[int]) -> None:
    busted = [(f"p{i}", s) for i, s in enumerate(stacks)]
    remaining = max(remaining, len(busted))
    result = placings(remaining, busted)
    assert min(p.place for p in result) == remaining - len(busted) + 1
    assert max(p.last for p in result) == remaining
    for p in result:  # more chips, better (lower) place
        assert all(q.place < p.place for q in result if q.start_stack > p.start_stack)
        assert all(q.place == p.place for q in result if q.start_stack == p.start_stack)
    assert len({p.place for p in result}) == len(set(stacks))
    for group_place in {p.place for p in result}:  # a tie covers as many places as players
        group = [p for p in result if p.place == group_place]
        assert group[0].last - group[0].place + 1 == len(group)


@given(st.integers(2, 10), st.lists(st.integers(0, 10), min_size=1, max_size=8))
def test_balancing_between_deals_leaves_no_table_two_players_larger(seats: int, sizes: list[int]) -> None:
    """Balancing, every table idle: after the plan's breaks and moves the tables differ by at
    most one player, no more tables are open than needed, and no table is over its seats."""
    from tournaments.engine.balance import TableLoad, plan, tables_needed

    sizes = [min(size, seats) for size in sizes]
    if sum(sizes) == 0:
        sizes[0] = 1
    loads = [TableLoad(f"t{i}", tuple(f"p{i}-{j}" for j in range(n)), True) for i, n in enumerate(sizes)]
    result = plan(loads, seats)
    members = {load.table_id: set(load.movers) for load in loads}
    for move in result.moves:
        members[move.source].remove(move.player)
        members[move.target].add(move.player)
    active = [t for t in members if t not in result.breaks]
    counts = [len(members[t]) for t in active]
    assert all(not members[t] for t in result.breaks)  # a broken table is emptied
    assert len(active) == tables_needed(sum(sizes), seats)
    assert max(counts) - min(counts) <= 1
    assert max(counts) <= seats
    assert result.held == set()
