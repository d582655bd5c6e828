"""All-out rules: what happens when every player has declared "out" (AO-*, D-AO; 42X-02).

Used by the Guts programs through their steps' parameters (`"$all_out"`), never by branches in
the generic steps:

- the showdown asks `shows_hands` / `judged_by` (AO-03..05: everyone shows; 42X-02: every hand is
  judged on its four cards with twos wild, D-42X-03/04);
- the settle step's `match_pot_each` rule calls `settle_all_out`;
- the `all_out` step runs the two rules that start a new declare (`REDECLARE`: AO-06 pass right,
  AO-07 extra card; see `steps/all_out.py`).
"""

from __future__ import annotations

from tables.engine.decider.money import Book, Round, affordable, loser_cost, split_evenly

RULES = (
    "carry",
    "extra_ante",
    "wimp_all",
    "wimp_others",
    "best_matches",
    "extra_card",
    "pass_right",
    "twos_match",
)
SHOWS_HANDS = frozenset({"wimp_all", "wimp_others", "best_matches", "twos_match"})  # AO-03..05, 42X-02
REDECLARE = frozenset({"extra_card", "pass_right"})  # AO-06, AO-07
WIMP = frozenset({"wimp_all", "wimp_others"})  # AO-03, AO-04
WILD_TWO = "2"


def shows_hands(rule: str) -> bool:
    return rule in SHOWS_HANDS


def judged_by(rule: str) -> tuple[str, tuple[int, ...]] | None:
    """(ranking, wild ranks) that judge the all-out hands instead of the showdown's own: 42X-02
    judges the four cards held (D-42X-03) by the four-card ranking, twos wild (D-42X-04)."""
    return ("four_card", (2,)) if rule == "twos_match" else None


def settle_all_out(book: Book, r: Round) -> tuple[str, list[str]]:
    """D-AO: the all-out payments into the pot; returns (outcome, matchers). `r.winners` are the
    best hand(s) when the rule shows hands."""
    rule, ante, best = r.all_out, r.terms["ante"], r.ordered(r.winners)
    if rule == "extra_ante":  # AO-02
        for player in r.order:
            if r.terms["stack_policy"] == "allow_debt" or r.stacks[player] >= ante:
                book.to_pot(player, ante, "extra_ante")
        return rule, []
    if rule in ("wimp_all", "wimp_others", "best_matches"):  # AO-03, AO-04, AO-05
        amount = loser_cost(book.pot, r.terms) if rule == "best_matches" else wimp_antes(rule, r) * ante
        for player, share in zip(best, split_evenly(amount, best), strict=True):
            book.to_pot(player, affordable(share, r.stacks[player], r.terms), rule)
        return rule, best
    if rule == "twos_match":  # 42X-02, D-42X-03: each pays once
        payers = [p for p in r.order if p in best or _holds_a_two(r.hands.get(p, ()))]
        cost = loser_cost(book.pot, r.terms)
        for player in payers:
            book.to_pot(player, affordable(cost, r.stacks[player], r.terms), "pot_matched")
        return rule, payers
    # AO-01; extra_card settles only when the pack cannot serve another round: the pot carries
    return "all_out_carry", []


def wimp_antes(rule: str, r: Round) -> int:
    """How many antes the best hand pays (D-AO, D-AO-02): N under wimp_all; N - 1 for the others
    under wimp_others, plus his own when antes are due every deal (his payment stands in for the
    next deal's antes, so he pays N in all)."""
    n = len(r.order)
    return n if rule == "wimp_all" or r.antes_every_deal else n - 1


def next_ante_exempt(rule: str, r: Round) -> list[str]:
    """D-AO-02: when antes are due every deal, a wimp payment stands in for the next deal's
    antes, so nobody dealt in now antes next deal (a newcomer does: nobody paid for him)."""
    return list(r.order) if rule in WIMP and r.antes_every_deal else []


def _holds_a_two(cards: tuple[str, ...]) -> bool:
    return any(card[0] == WILD_TWO for card in cards)
