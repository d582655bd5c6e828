"""Settlement rules: who pays whom after a showdown, as transfers (named data, DESIGN §2.2).

The settle step names one rule of `RULES`:

- `match_pot_each` (G2-11..15, NSP-01..02, CAP): one "in" takes the pot; several: the best hand(s)
  take it and each loser matches it; all out, the table's all-out rule decides (`all_out`; a
  wimp payment excuses everyone from the next deal's antes when they are due every deal, D-AO-02).
  With the ghost in the showdown (GH-04), only a hand that beat it wins; when none did, every
  "in" player matches and the pot stays (GH-05).
- `single_loser` (SL-01..04, D-MC-01): as `match_pot_each`, but only the worst "in" hand(s)
  match, and they skip the next deal's ante (`Settlement.ante_exempt`).
- `losers_pay_winners` (357-11..13, 357-18, D-357-01/02): each losing "in" player pays the amount
  of the pot to the winner(s), shared among tied winners (D-GEN-01); the pot is untouched.
- `losers_share` (Monte Carlo, MC-04, MC-11..13): the best hand(s) take the pot; the losing "in"
  players together replenish one pot amount (capped) in equal shares (D-GEN-01). When an open
  hand (MCA-05) beat them all, nobody takes the pot and all of them replenish it (Q-MC-05).
- `worst_replenishes` (Survivor, SV-01..03): as `losers_share`, but only the worst shown hand
  replenishes; identical worst hands share the amount.
- `match_escalated` (Thirty Eight, T38-04/05, D-T38-01): the best hand takes the existing pot;
  folders pay their accepted level, losers the final level, into the next pot.
- `tricks` (Wolfie's Lou, WL-10..12, D-WL-06): three tricks take the existing pot; everybody
  else pays his multiple of it (twice for no trick under WL-12) into the next pot.
- `high_low` (Four-Three, 43-05/06, D-43-01): the pot in halves, High and Low; a Both player must
  win or tie both; whoever "in" wins nothing matches the pot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from tables.engine.decider.all_out import next_ante_exempt, settle_all_out
from tables.engine.decider.money import Book, Round, Settlement, affordable, loser_cost, split_evenly


def settle_match_pot_each(r: Round) -> Settlement:
    """G2-11..15: one "in" takes the pot; several: the best hand(s) take it and each loser matches
    it. All out: the all-out rule (`all_out.settle_all_out`)."""
    return _settle_matching(r, [p for p in r.in_players() if p not in r.winners])


def settle_single_loser(r: Round) -> Settlement:
    """SL-01..04: as match_pot_each, but only the worst "in" hand matches the pot, tied worst hands
    each match (SL-02; nobody when every "in" hand ties), and the matchers skip the next deal's
    ante (SL-04, D-MC-01). When the ghost won, every "in" player matches (GH-05). All out, the
    all-out rule; a best hand that matched the pot (AO-05) is a matcher too."""
    in_players = r.in_players()
    if in_players and not r.winners:
        worst = in_players  # GH-05: the ghost won
    else:
        worst = [p for p in r.ordered(r.worst) if p not in r.winners]
    result = _settle_matching(r, worst)
    matched = bool(in_players) or r.all_out == "best_matches"
    return replace(result, ante_exempt=result.ante_exempt or (result.matchers if matched else ()))


def _settle_matching(r: Round, losers: list[str]) -> Settlement:
    """The best hand(s) take the pot and `losers` each match it (the contested part of G2-13 and
    SL-01); one "in" takes it alone (G2-11); all out, the all-out rule."""
    book = Book(r.table, r.pot)
    in_players = r.in_players()
    winners = r.ordered(r.winners)
    matchers: list[str] = []
    exempt: list[str] = []
    if not in_players:
        outcome, matchers = settle_all_out(book, r)
        exempt = next_ante_exempt(r.all_out, r)  # D-AO-02
    elif len(in_players) == 1 and not r.ghost_played:
        outcome = "uncontested"  # G2-11
        book.to_seat(in_players[0], r.pot, "pot_won")
    else:
        cost = loser_cost(r.pot, r.terms)
        if not winners:
            outcome = "ghost_won"  # GH-05: the pot stays
        elif len(winners) > 1 and r.terms["ties"] == "no_split":
            outcome = "no_split"  # NSP-01, NSP-02: the pot stays
        else:
            for player, share in zip(winners, split_evenly(r.pot, winners), strict=True):
                book.to_seat(player, share, "pot_won")  # G2-14 TIE_SPLIT, D-GEN-01
            outcome = "won" if len(winners) == 1 else ("all_tied" if not losers else "split")
        for player in losers:  # G2-13, D-G2-03
            book.to_pot(player, affordable(cost, r.stacks[player], r.terms), "pot_matched")
        matchers = losers
    return book.close(outcome, winners, matchers, r.reserve, r.terms, exempt)


def settle_losers_pay_winners(r: Round) -> Settlement:
    """357-11..13, D-357-01/02: each losing "in" player pays one pot amount (capped like a match),
    shared among the winners (odd chips D-GEN-01); the pot itself does not change. With fewer than
    two "in" there is nothing to pay (357-07; a lone "in" earns a leg in the lone_in step)."""
    book = Book(r.table, r.pot)
    in_players = r.in_players()
    if len(in_players) < 2:
        return book.close("no_contest", (), (), r.reserve, r.terms)
    winners = r.ordered(r.winners)
    losers = [p for p in in_players if p not in r.winners]
    cost = loser_cost(r.pot, r.terms)
    for loser in losers:
        paid = affordable(cost, r.stacks[loser], r.terms)
        for winner, share in zip(winners, split_evenly(paid, winners), strict=True):
            book.seat_to_seat(loser, winner, share, "loser_paid")
    outcome = "won" if len(winners) == 1 else ("all_tied" if not losers else "split")
    return book.close(outcome, winners, losers, r.reserve, r.terms)


def settle_losers_share(r: Round) -> Settlement:
    """MC-11..13, MC-04: the best hand(s) take the pot (identical best hands split it); every
    losing "in" player pays an equal share of one pot amount, capped (CAP_PAY_LIMIT_ONLY, D-CAP),
    into the next pot; the payers nearest the dealer's left pay the odd chips (D-GEN-01). One
    "in" takes the pot uncontested; nobody "in": the all-out rule (MC-15 carry, MCA-01)."""
    return _replenish(r, lambda losers: losers)


def settle_worst_replenishes(r: Round) -> Settlement:
    """SV-02, SV-03: as `losers_share`, but only the worst shown hand replenishes; identical worst
    hands replenish in equal shares (unlike SL-02, where each tied worst hand matches in full)."""
    return _replenish(r, lambda losers: [p for p in losers if p in r.worst])


def _replenish(r: Round, payers_of: Callable[[list[str]], list[str]]) -> Settlement:
    """The shared Monte Carlo / Survivor settlement; whoever pays into the pot skips the next
    deal's ante (MC-14, D-MC-01), MCA-01's best hand too."""
    in_players = r.in_players()
    if len(in_players) < 2:
        result = settle_match_pot_each(r)  # uncontested, or all out
        return replace(
            result,
            ante_exempt=(*result.ante_exempt, *(p for p in result.matchers if p not in result.ante_exempt)),
        )
    book = Book(r.table, r.pot)
    winners = r.ordered(r.winners)
    losers = [p for p in in_players if p not in r.winners]
    payers = payers_of(losers)
    amount = loser_cost(r.pot, r.terms)
    for player, share in zip(winners, split_evenly(r.pot, winners) if winners else (), strict=True):
        book.to_seat(player, share, "pot_won")  # MC-04, D-GEN-01
    for player, share in zip(payers, split_evenly(amount, payers) if payers else (), strict=True):
        book.to_pot(player, affordable(share, r.stacks[player], r.terms), "pot_replenished")
    if not winners:  # MCA-05, Q-MC-05: the open hand
        outcome = "ghost_won"  # won; the pot stays (GH-05)
    else:
        outcome = "won" if len(winners) == 1 else ("all_tied" if not losers else "split")
    return book.close(outcome, winners, payers, r.reserve, r.terms, payers)


# --- Thirty Eight (T38-04/05, D-T38-01) and Four-Three (43-05/06, D-43-01) ------------------------


def settle_match_escalated(r: Round) -> Settlement:
    """T38-04/05, D-T38-01, EX-08: the best remaining hand takes the existing pot (tied hands
    split it, D-GEN-01; NSP under ``ties=no_split``); every other player of the escalation pays
    his level times that pot (`Round.escalated`: a folder the highest level he had accepted, a
    remaining loser the final level), capped like a match; all payments form the next pot. One
    player left after the folds wins without a showdown ("uncontested"); the folders still pay.
    With no escalation (nobody "in", or fewer than two), `match_pot_each`."""
    if not r.escalated:
        return settle_match_pot_each(r)
    book = Book(r.table, r.pot)
    winners = r.ordered(r.winners)
    payers = [p for p in r.order if p in r.escalated and p not in winners]
    if len(winners) > 1 and r.terms["ties"] == "no_split":
        outcome = "no_split"  # NSP-01: the pot stays
    else:
        for player, share in zip(winners, split_evenly(r.pot, winners), strict=True):
            book.to_seat(player, share, "pot_won")
        left = [p for p in r.in_players() if p not in r.folded]
        outcome = (
            "uncontested"
            if len(left) == 1
            else "won"
            if len(winners) == 1
            else "split"
            if set(left) - set(winners)
            else "all_tied"
        )
    for player in payers:  # T38-04, T38-05
        cost = loser_cost(r.escalated[player] * r.pot, r.terms)
        book.to_pot(player, affordable(cost, r.stacks[player], r.terms), "pot_matched")
    return book.close(outcome, winners, payers, r.reserve, r.terms)


def settle_high_low(r: Round) -> Settlement:
    """43-05/06, D-43-01: the pot is split in halves, the High half to the best High hand(s), the
    Low half to the best Low hand(s) (`Round.sides`, Both players who failed already struck).
    The odd chip of the halves goes to the side whose first winner sits nearest the dealer's left
    (High on a tie), each half is shared among its tied winners (D-GEN-01); with nobody on one
    side the other side's winners take the whole pot. Every "in" player who wins nothing matches
    the pot (capped like a match). When no side has a winner (every Both player struck and nobody
    else on either side) the pot stays and every "in" player matches ("nobody_won"). One "in", or
    nobody: `match_pot_each`."""
    in_players = r.in_players()
    if len(in_players) < 2:
        return settle_match_pot_each(r)
    book = Book(r.table, r.pot)
    sides = [r.ordered(side) for side in r.sides] if any(r.sides) else [r.ordered(r.winners)]
    shares = half_shares(r.pot, sides, r.order)  # one left after folds (D-BET): he takes it
    for player in r.order:
        book.to_seat(player, shares.get(player, 0), "pot_won")
    winners = [p for p in r.order if p in shares]
    losers = [p for p in in_players if p not in shares]
    cost = loser_cost(r.pot, r.terms)
    for player in losers:  # 43-06, G2-13
        book.to_pot(player, affordable(cost, r.stacks[player], r.terms), "pot_matched")
    outcome = (
        "nobody_won" if not winners else "won" if len(winners) == 1 else "split" if losers else "all_tied"
    )
    return book.close(outcome, winners, losers, r.reserve, r.terms)


def half_shares(pot: int, sides: list[list[str]], order: tuple[str, ...]) -> dict[str, int]:
    """D-43-01, D-GEN-01: what each winner of the pot's halves gets. `sides` are the winners of
    each side in seat order from the dealer's left (empty: nobody on that side)."""
    judged = [side for side in sides if side]
    if not judged:
        return {}
    judged.sort(key=lambda side: order.index(side[0]))  # stable: High first on a tie
    shares: dict[str, int] = {}
    for side, half in zip(judged, split_evenly(pot, [s[0] for s in judged]), strict=True):
        for player, share in zip(side, split_evenly(half, side), strict=True):
            shares[player] = shares.get(player, 0) + share
    return shares


# --- Wolfie's Lou (WL-10..12, D-WL-06) ---------------------------------------------------------------


def settle_tricks(r: Round) -> Settlement:
    """WL-10..12, D-WL-06: the winner of three or more tricks (`Round.winners`) takes the existing
    pot; every other player of the tricks pays his multiple of it (`Round.escalated`: one, or two
    for no trick under WL-12), capped like a match; nobody with three: everybody pays (WL-11,
    "nobody_won"); the payments form the next pot. Without tricks (nobody "in": the all-out rule,
    D-WL-01's carry; a lone "in" takes the pot), `match_pot_each`."""
    if not r.escalated:
        return settle_match_pot_each(r)
    book = Book(r.table, r.pot)
    winners = r.ordered(r.winners)
    for player in winners:  # at most one: 3 of 5 tricks
        book.to_seat(player, r.pot, "pot_won")
    payers = [p for p in r.order if p in r.escalated and p not in winners]
    for player in payers:
        cost = loser_cost(r.escalated[player] * r.pot, r.terms)
        book.to_pot(player, affordable(cost, r.stacks[player], r.terms), "pot_matched")
    return book.close("won" if winners else "nobody_won", winners, payers, r.reserve, r.terms)


# The rules that read the showdown's worst hand(s) (`Round.worst`): the showdown step names them.
NEEDS_WORST = frozenset({"single_loser", "worst_replenishes"})

RULES: Mapping[str, Callable[[Round], Settlement]] = {
    "match_pot_each": settle_match_pot_each,
    "single_loser": settle_single_loser,
    "losers_pay_winners": settle_losers_pay_winners,
    "losers_share": settle_losers_share,
    "worst_replenishes": settle_worst_replenishes,
    "match_escalated": settle_match_escalated,  # T38, D-T38-01
    "high_low": settle_high_low,  # 43, D-43-01
    "tricks": settle_tricks,  # WL-10..12, D-WL-06
}
