"""The interpreter of a variant's program: runs the automatic steps of the live deal.

`advance(state, now)` runs steps (ante, deal, showdown, settle) until one waits for players (an
open declare) or the program ends (DealEnded, and GameEnded when the pot has emptied). Each step
kind is one small function returning the events it decides; they are folded as they come, so
every step sees the facts before it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from itertools import combinations
from typing import Any

from ledger.accounts import Transfer, pot_account, seat_account
from tables.engine import STANDARD_PACK, Deck, evaluate, showdown
from tables.engine.decider import events as ev
from tables.engine.decider.close import close_table_events
from tables.engine.decider.evolve import evolve
from tables.engine.decider.settlement import rebalance_reserve, settle_match_pot_each
from tables.engine.decider.state import DealState, TableState
from tables.engine.hand_value import HandValue
from tables.engine.variants import Step

AO_SHOWS_HANDS = frozenset({"wimp_all", "wimp_others", "best_matches"})   # AO-03..05


def iso(moment: datetime) -> str:
    """ISO-8601 UTC with a Z, the one time format in events (`moment` must be timezone-aware)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


def advance(state: TableState, now: datetime) -> tuple[TableState, list[ev.Event]]:
    """Run the live deal's automatic steps; stop when players must act or the deal has ended."""
    emitted: list[ev.Event] = []
    while (deal := state.live) is not None:
        step = state.current_step()
        new = _end_of_deal(state, deal) if step is None else _STEPS[step.kind](state, deal, step, now)
        if not new:
            break
        for event in new:
            state = evolve(state, event)
            emitted.append(event)
    return state, emitted


# --- ante ------------------------------------------------------------------------------------------

def antes_due(state: TableState) -> bool:
    """G2-05 (pot empty) or SL-03 (every deal), per the program's ante step."""
    for step in state.rules.program:
        if step.kind == "ante":
            return step.param("when", state.opts) == "every_deal" or state.pot == 0
    return False


def _ante(state: TableState, deal: DealState, step: Step, now: datetime) -> list[ev.Event]:
    opts, table = state.opts, state.table_id
    due = step.param("when", opts) == "every_deal" or state.pot == 0
    ante = opts["ante"]
    paid = list(deal.order) if due else []
    transfers = [Transfer(seat_account(table, p), pot_account(table), ante, "ante") for p in paid]
    pot = state.pot + ante * len(paid)
    transfers += rebalance_reserve(table, pot, state.reserve, opts)          # RES-01 on antes too
    sat_out = [s.player for s in state.seats if s.player not in deal.order]     # D-GEN-06
    return [ev.Event(ev.ANTES_POSTED, {"deal_no": deal.deal_no, "due": due, "ante": ante,
                                       "paid": paid, "sat_out": sat_out,
                                       "transfers": [t.to_json() for t in transfers]})]


# --- deal ------------------------------------------------------------------------------------------

def deck_for(state: TableState, deal: DealState) -> Deck:
    if deal.stacked:
        assert state.stacked_decks is not None
        cards = state.stacked_decks[(deal.deal_no - 1) % len(state.stacked_decks)]
        return Deck.stacked(cards, pack=STANDARD_PACK)
    assert deal.seed is not None
    return Deck.shuffled(deal.seed)


def _deal(state: TableState, deal: DealState, step: Step, now: datetime) -> list[ev.Event]:
    """D-G2-01: one card at a time, clockwise from the dealer's left, `count` times around."""
    count = step.param("count", state.opts)
    dealt_before = sum(len(h) for h in deal.hands)
    players = len(deal.order)
    cards = deck_for(state, deal).peek(dealt_before + count * players)[dealt_before:]
    return [ev.Event(ev.CARDS_DEALT, {
        "deal_no": deal.deal_no, "player": player, "face": step.param("face", state.opts),
        "cards": [*deal.hands[i], *(str(cards[r * players + i]) for r in range(count))]})
        for i, player in enumerate(deal.order)]


# --- declare ---------------------------------------------------------------------------------------

def declare_mode(state: TableState) -> str:
    step = state.current_step()
    return step.param("mode", state.opts) if step is not None and step.kind == "declare" else ""


def _declare(state: TableState, deal: DealState, step: Step, now: datetime) -> list[ev.Event]:
    """Open the next turn (G2-08) or window (SIM-01), force the dealer in (G2-10), or reveal."""
    if deal.awaiting:
        return []
    mode = step.param("mode", state.opts)
    deadline = iso(now + timedelta(seconds=state.opts["declare_timeout"]))
    if mode == "simultaneous":
        if deal.sealed:               # everyone has declared or timed out: reveal together (SIM-04)
            return [ev.Event(ev.DECLARES_REVEALED, {
                "deal_no": deal.deal_no, "choices": dict(zip(deal.order, deal.choices, strict=True))})]
        return [ev.Event(ev.DECLARE_OPENED, {"deal_no": deal.deal_no, "mode": mode,
                                             "players": list(deal.order), "deadline": deadline})]
    nxt = deal.choices.index(None)
    player = deal.order[nxt]
    others_out = all(c == "out" for c in deal.choices[:nxt])
    if nxt == len(deal.order) - 1 and others_out and state.opts["dealer_forced_in"]:
        return [ev.Event(ev.DECLARED, {"deal_no": deal.deal_no, "player": player, "choice": "in",
                                       "sealed": False, "forced": True})]       # G2-10, D-G2-05
    return [ev.Event(ev.DECLARE_OPENED, {"deal_no": deal.deal_no, "mode": mode,
                                         "players": [player], "deadline": deadline})]


# --- showdown --------------------------------------------------------------------------------------

def _showdown(state: TableState, deal: DealState, step: Step, now: datetime) -> list[ev.Event]:
    in_players = deal.in_players()
    if not in_players and state.opts["all_out"] == "extra_card" and _pack_serves_a_round(deal):
        return _extra_card(state, deal)                       # AO-07: then a new declare
    if not in_players and state.opts["all_out"] == "pass_right":
        return _pass_right(state, deal, now)                  # AO-06: then a new declare
    if len(in_players) == 1:                                  # G2-11: no need to show
        reason, shown = "uncontested", ()
    elif in_players:                                          # G2-12
        reason, shown = "contested", in_players
    elif state.opts["all_out"] in AO_SHOWS_HANDS:             # AO-03..05: everyone shows
        reason, shown = "all_out", deal.order
    else:
        reason, shown = "all_out", ()
    data: dict[str, Any] = {"deal_no": deal.deal_no, "reason": reason, "hands": [],
                            "winners": list(in_players) if reason == "uncontested" else [],
                            "losers": []}
    if shown:
        ranking = step.param("ranking", state.opts)
        extra = {"ace_low": state.opts["ace_low"]} if "ace_low" in state.opts else {}
        cards = [deal.hands[deal.index(p)] for p in shown]
        size = state.rules.cards_per_player
        values = [best_value(c, size, ranking, extra) for c in cards]
        result = showdown(values)
        data["hands"] = [{"player": p, "cards": list(c), "value": str(v), "category": v.category}
                         for p, c, v in zip(shown, cards, values, strict=True)]
        data["winners"] = [shown[i] for i in result.winners]
        data["losers"] = [shown[i] for i in result.losers]
    return [ev.Event(ev.SHOWDOWN_HELD, data)]


def best_value(cards: tuple[str, ...], size: int, ranking: str, options: Mapping[str, Any]) -> HandValue:
    """The hand's value; with more cards than the ranking's size (AO-07), the best combination
    of that size among all cards held (D-AO)."""
    if len(cards) == size:
        return evaluate(list(cards), ranking, **options)
    return max(evaluate(list(combo), ranking, **options) for combo in combinations(cards, size))


def _pack_serves_a_round(deal: DealState) -> bool:
    return sum(len(h) for h in deal.hands) + len(deal.order) <= len(STANDARD_PACK)


def _extra_card(state: TableState, deal: DealState) -> list[ev.Event]:
    """AO-07, D-AO: one more card to everyone, from the dealer's left; evolve then reopens the
    declare (the last CardsDealt with `extra` rewinds the program to the declare step)."""
    dealt = sum(len(h) for h in deal.hands)
    cards = deck_for(state, deal).peek(dealt + len(deal.order))[dealt:]
    return [ev.Event(ev.CARDS_DEALT, {"deal_no": deal.deal_no, "player": player, "face": "down",
                                      "cards": [*deal.hands[i], str(cards[i])], "extra": True})
            for i, player in enumerate(deal.order)]


def _pass_right(state: TableState, deal: DealState, now: datetime) -> list[ev.Event]:
    """AO-06, D-AO: everyone passes one card to the player on his right (counter-clockwise: the
    previous one in deal order), chosen before seeing what he receives (sealed); then a new
    declare. Repeats while everyone stays out."""
    if not deal.passing:
        deadline = iso(now + timedelta(seconds=state.opts["declare_timeout"]))
        return [ev.Event(ev.PASS_OPENED, {"deal_no": deal.deal_no, "players": list(deal.order),
                                          "deadline": deadline})]
    if None in deal.passed:
        return []
    events = []
    for i, player in enumerate(deal.order):
        gave, received = deal.passed[i], deal.passed[(i + 1) % len(deal.order)]
        hand = list(deal.hands[i])
        hand.remove(gave)
        events.append(ev.Event(ev.CARDS_EXCHANGED, {"deal_no": deal.deal_no, "player": player,
                                                    "gave": gave, "received": received,
                                                    "cards": [*hand, received]}))
    return events


# --- settle ----------------------------------------------------------------------------------------

def _settle(state: TableState, deal: DealState, step: Step, now: datetime) -> list[ev.Event]:
    result = settle_match_pot_each(
        table=state.table_id, order=deal.order, choices=deal.choices, winners=deal.winners,
        pot=state.pot, reserve=state.reserve, stacks={s.player: s.stack for s in state.seats},
        opts=state.opts)
    return [ev.Event(ev.POT_SETTLED, {
        "deal_no": deal.deal_no, "outcome": result.outcome, "winners": list(result.winners),
        "matchers": list(result.matchers), "transfers": [t.to_json() for t in result.transfers],
        "pot": result.pot, "reserve": result.reserve})]


# --- end of the program ----------------------------------------------------------------------------

def _end_of_deal(state: TableState, deal: DealState) -> list[ev.Event]:
    """DealEnded reveals the seed (DESIGN §2.7); an emptied pot ends the game (D-GEN-08, G2-15)."""
    events = [ev.Event(ev.DEAL_ENDED, {"deal_no": deal.deal_no, "seed": deal.seed,
                                       "commitment": deal.commitment, "stacked": deal.stacked})]
    if state.pot == 0 and state.reserve == 0:
        final = bool(state.opts["end_on_empty_pot"])
        events.append(ev.Event(ev.GAME_ENDED, {"game_no": deal.game_no, "reason": deal.outcome,
                                               "final": final}))
        if final:
            events.append(close_table_events(state))
    return events


_STEPS: Mapping[str, Callable[[TableState, DealState, Step, datetime], list[ev.Event]]] = {
    "ante": _ante, "deal": _deal, "declare": _declare, "showdown": _showdown, "settle": _settle,
}
