"""Property over random deals of every variant, Italian poker's short pack included (deck schema 2,
docs/deck.md §10): after every command of the deal and after its end, each role's proof verifies
with docs/verify_deal.py, and the openings served to anyone but an auditor of a finished deal never
hold a card that viewer could not see in the table as the engine's visibility rule showed it to him
up to then (his own cards, face-up and shown cards, a private comparison's hands). A holder has the
openings of the cards he holds as soon as he holds them; a short pack's cards out of play are
opened to everyone from the start."""

from __future__ import annotations

import importlib.util
import io
import json
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tables.audit.deals import DealRecord
from tables.audit.fairness import proof_json
from tables.engine import fairdeck
from tables.engine.decider import commands as cmd
from tables.engine.decider.errors import DomainError
from tables.engine.decider.evolve import fold
from tables.engine.decider.state import TableState
from tables.engine.decider.steps.escalation import Escalate
from tables.engine.decider.table import eligible_players
from tables.engine.decider.variants import VARIANTS
from tables.engine.decider.view import Viewer, legal_actions, table_view
from tables.engine.deck import STANDARD_PACK, italian_pack
from tests.engine.decider.helpers import T0, Session, later, table

VERIFIER = Path(settings.BASE_DIR) / "docs" / "verify_deal.py"
_spec = importlib.util.spec_from_file_location("verify_deal", VERIFIER)
assert _spec is not None
assert _spec.loader is not None
verify_deal = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_deal)

PLAYERS = "abcd"
PACK_CARDS = [str(card) for card in STANDARD_PACK]
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
OUTSIDER, ADMIN, AUDITOR = Viewer("zz"), Viewer(None, "admin"), Viewer(None, "auditor")
VIEWERS = [*(Viewer(p) for p in PLAYERS), OUTSIDER, ADMIN, AUDITOR]
DEAL_ACTIONS = ("declare", "pass", "exchange", "bid", "escalate", "bet", "offer", "trump", "play")
VARIANT_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "guts2": [{}, {"ghost": "always"}, {"exchange": "draw"}, {"all_out": "pass_right"}],
    "guts3": [{}, {"exchange": "draw"}, {"exchange": "pass_left"}],
}


def secret_deck(rng: random.Random) -> fairdeck.SecretDeck:
    """A secret deck drawn from hypothesis' randomness (the service uses the OS CSPRNG)."""
    cards = [str(card) for card in STANDARD_PACK]
    rng.shuffle(cards)
    return fairdeck.SecretDeck(tuple(cards), tuple(f"{rng.getrandbits(128):032x}" for _ in cards))


def command_for(
    player: str, action: dict[str, Any], deal_no: int, data: st.DataObject, rng: random.Random, turn: int
) -> Any:
    """A random command for one of the legal actions the engine offers (at the deal's `turn`)."""
    kind = action["action"]
    if kind == "declare":
        return cmd.Declare(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    if kind == "pass":
        return cmd.PassCard(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    if kind == "exchange":
        hand = list(action["choices"])
        count = data.draw(st.integers(0, action["max"]))
        return cmd.Exchange(player, deal_no, rng.sample(hand, count), salts=fairdeck.new_salts(52))
    if kind == "bid":
        amount = None if action["max"] is not None and action["max"] < action["min"] else action["min"]
        return cmd.Bid(player, deal_no, data.draw(st.sampled_from([None, amount])))
    if kind == "escalate":
        return Escalate(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    if kind == "offer":  # BF-04: the offering ends once a card goes round untaken
        choice = data.draw(st.sampled_from(["leave", "leave", "take"])) if turn < 30 else "leave"
        card = data.draw(st.sampled_from(action["give"])) if choice == "take" else None
        return cmd.Offer(player, deal_no, choice, card)
    if kind == "trump":
        return cmd.ChooseTrump(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    if kind == "play":
        return cmd.PlayCard(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    return cmd.Bet(player, deal_no, data.draw(st.sampled_from(action["choices"])))


def act(session: Session, data: st.DataObject, rng: random.Random, turn: int) -> bool:
    """One random legal deal action of a random awaited player (False: nobody can act)."""
    deal = session.state.live
    assert deal is not None
    moves = [
        (player, action)
        for player in deal.order
        for action in legal_actions(session.state, player, later(turn))
        if action["action"] in DEAL_ACTIONS
    ]
    if not moves:
        return False
    player, action = data.draw(st.sampled_from(moves))
    try:
        session.do(command_for(player, action, deal.deal_no, data, rng, turn), later(turn))
    except DomainError:
        return False
    return True


def record_of(session: Session, first: int) -> DealRecord:
    """The deal whose StartDeal's events begin at `first`, as tables.audit.deals reads it: from its
    DealStarted to its DealEnded (or to now, while it is live), and the state before it."""
    events = session.events[first:]
    start = next(i for i, e in enumerate(events) if e.type == "DealStarted")
    end = next((i for i, e in enumerate(events) if e.type == "DealEnded"), None)
    before = fold(session.events[: first + start])
    stored = tuple(
        SimpleNamespace(type=e.type, data=e.to_json(), version=first + i + 1)
        for i, e in enumerate(events[start : len(events) if end is None else end + 1], start=start)
    )
    return DealRecord(
        table_id="t1", deal_no=stored[0].data["deal_no"], before=before, events=stored, over=end is not None
    )  # type: ignore[arg-type]


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(cards_in(item) for item in value))
    return set()


class Watch:
    """What the engine's table view has shown each viewer so far in the deal (the one
    visibility rule), folded event by event as the deal goes on."""

    def __init__(self, session: Session, first: int) -> None:
        self.state: TableState = fold(session.events[:first])
        self.folded = first
        self.seen: dict[Viewer, set[str]] = {viewer: set() for viewer in VIEWERS}

    def catch_up(self, session: Session) -> None:
        for event in session.events[self.folded :]:
            self.state = fold([event], self.state)
            if self.state.deal is None:
                continue
            for viewer, seen in self.seen.items():
                seen |= cards_in(table_view(self.state, viewer, T0)["deal"])
        self.folded = len(session.events)


def verified(proof: dict[str, Any]) -> tuple[int, str]:
    out = io.StringIO()
    return verify_deal.verify(proof, out), out.getvalue()


def check_proofs(session: Session, first: int, watch: Watch) -> None:
    """Every role's proof of the deal now verifies, and opens only what that role was shown."""
    watch.catch_up(session)
    record = record_of(session, first)
    live = session.state.live
    for viewer in VIEWERS:
        proof = proof_json(record, viewer)
        result, printed = verified(proof)
        assert result == verify_deal.OK, printed
        assert proof["ok"] is True
        assert proof["finished"] is record.over
        everything = viewer.role == "auditor" and record.over
        if not everything:
            opened = {opening["card"] for opening in proof["openings"]}
            assert opened <= watch.seen[viewer], (viewer, opened - watch.seen[viewer])
            assert proof["deck"] is None
            assert proof["reshuffles"] is None
            assert "whole deck" not in printed
        dealt = {card["index"] for card in proof["dealt"]}
        assert {opening["index"] for opening in proof["openings"]} <= dealt or everything
        outside = {opening["card"] for opening in proof["out_of_play"]}
        assert outside == set(PACK_CARDS) - set(proof["pack"])  # public to every role
        if live is not None and viewer.player_id in live.order:  # his own cards, as soon as held
            held = set(live.hand_of(viewer.player_id))
            assert held <= {opening["card"] for opening in proof["openings"]}, printed
            assert f"OK as player: {len(proof['openings'])} cards checked" in printed


def play_deal(session: Session, data: st.DataObject, rng: random.Random, *, watched: bool = False) -> int:
    """Start a schema-2 deal and play it to its end with random legal actions (timeouts when
    nobody may act), checking every role's proof after each command if `watched`; returns where
    the deal's events begin."""
    first = len(session.events)
    session.do(cmd.StartDeal(deck=secret_deck(rng), next_deck=secret_deck(rng)))
    watch = Watch(session, first)
    for turn in range(300):
        if watched:
            check_proofs(session, first, watch)
        if session.state.live is None:
            break
        if not act(session, data, rng, turn):
            expire = cmd.ExpireDeclare(session.state.live.deal_no, salts=fairdeck.new_salts(52))
            session.do(expire, later(turn + 3600))
    assert session.state.live is None
    return first


VARIANT_CASES = [(name, options) for name in VARIANTS for options in VARIANT_OPTIONS.get(name, [{}])]


def test_every_variant_is_dealt_from_a_committed_deck() -> None:
    """Italian poker too (D-IT-01): its short pack is dealt from the 52 committed cards."""
    assert "italian" in VARIANTS
    for name in VARIANTS:
        session = table(PLAYERS, variant=name, ante=5, min_buy_in=500, buy_in=5000)
        session.do(cmd.StartDeal(deck=fairdeck.new_secret_deck(), next_deck=fairdeck.new_secret_deck()))
        started = next(e for e in session.events if e.type == "DealStarted")
        assert (started.deck_schema, started.seed) == (fairdeck.SCHEMA, None), name


@pytest.mark.parametrize(("variant", "options"), VARIANT_CASES)
@given(seed=st.integers(0, 2**32), data=st.data())
@hypothesis_settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_roles_proof_verifies_and_opens_only_what_it_may_see(
    variant: str, options: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    floor = max(100, VARIANTS[variant].min_buy_in_antes * 5)
    session = table(
        PLAYERS, variant=variant, ante=5, declare_timeout=30, min_buy_in=floor, buy_in=10 * floor, **options
    )
    play_deal(session, data, rng)
    contributed = [p for p in PLAYERS if data.draw(st.booleans())]
    for player in contributed:
        session.do(cmd.ContributeSeed(player, f"{rng.getrandbits(256):064x}"))
    if session.state.status != "open":
        return
    if len(eligible_players(session.state)) < 2:  # a table that cannot deal again (stacks)
        return
    first = play_deal(session, data, rng, watched=True)
    record = record_of(session, first)
    started = record.events[0].data
    assert [item["player"] for item in started["entropy"]] == contributed
    auditor = proof_json(record, AUDITOR)
    result, printed = verified(auditor)
    assert result == verify_deal.OK, printed
    assert "whole deck OK" in printed
    assert len(auditor["openings"]) == len(auditor["deck"])  # every dealing index, the stock too
    committed = [o for o in auditor["openings"] if o["tree"] == 0] + auditor["out_of_play"]
    assert sorted(o["position"] for o in committed) == list(range(52))
    if variant == "italian":  # D-IT-01: the pack for the players dealt in
        assert auditor["pack"] == [str(card) for card in italian_pack(len(started["participants"]))]


# --- D-GEN-02: reshuffled stocks, committed afresh --------------------------------------------------


def test_d_gen_02_a_reshuffled_stock_is_committed_afresh_and_each_role_verifies_it() -> None:
    players = "abcdefghijklmnopqrstuvwxy"  # 25: the stock runs out during the draws
    rng = random.Random(7)
    session = table(players, exchange="draw", ante=1, seats=25, declare_mode="simultaneous")
    first = len(session.events)
    session.do(cmd.StartDeal(deck=secret_deck(rng), next_deck=secret_deck(rng)))
    deal = session.state.live
    assert deal is not None
    for player in deal.order:
        hand = list(session.state.live.hand_of(player))
        session.do(cmd.Exchange(player, 1, hand, salts=fairdeck.new_salts(52)))
    for player in deal.order:
        session.do(cmd.Declare(player, 1, "out"))
    events = session.events[first:]
    reshuffled = [e for e in events if e.type == "StockReshuffled"]
    assert reshuffled
    assert all(e.root and len(e.salts) == e.count for e in reshuffled)
    record = record_of(session, first)
    auditor = proof_json(record, AUDITOR)
    result, printed = verified(auditor)
    assert result == verify_deal.OK, printed
    assert "reshuffled stock 1 OK" in printed
    drawer = next(
        e for e in events if e.type == "CardsDrawn" and e.drawn and e.drawn[-1] in reshuffled[0].cards
    )
    proof = proof_json(record, Viewer(drawer.player))
    result, printed = verified(proof)
    assert result == verify_deal.OK, printed
    assert any(opening["tree"] == 1 for opening in proof["openings"])
    # the player who discarded a card another drew after the reshuffle is not told who drew it
    card = drawer.drawn[-1]
    discarder = next(e.player for e in events if e.type == "CardsDrawn" and card in e.discarded)
    if discarder != drawer.player:
        theirs = proof_json(record, Viewer(discarder))
        assert not any(o["tree"] == 1 and o["card"] == card for o in theirs["openings"])
    tampered = json.loads(json.dumps(proof))
    opening = next(o for o in tampered["openings"] if o["tree"] == 1)
    opening["card"] = next(c for c in PACK_CARDS if c != opening["card"])
    assert verified(tampered)[0] == verify_deal.MISMATCH


def italian_deal_with_a_reshuffle(*, last_draw_times_out: bool = False) -> tuple[Session, int]:
    """A deal of Italian poker for six (D-IT-01: 40 cards, 30 dealt) in which someone opens and
    everyone draws four: the stock runs out and the discards are reshuffled (IT-14, D-GEN-02).
    With `last_draw_times_out`, the last drawer stands pat by the timer's ExpireDeclare, and the
    fourth cards owed (IT-15) are served, from a reshuffled stock, in that decision."""
    for attempt in range(300):
        rng = random.Random(attempt)
        session = table("abcdef", variant="italian", ante=5, min_buy_in=500, buy_in=5000)
        first = len(session.events)
        session.do(cmd.StartDeal(deck=secret_deck(rng), next_deck=secret_deck(rng)))
        timed_out: list[Any] = []
        for turn in range(200):
            live = session.state.live
            if live is None:
                break
            drawing = [p for p in live.order if p not in live.folded and p not in live.exchanged]
            moves = [
                (player, action)
                for player in live.order
                for action in legal_actions(session.state, player, later(turn))
                if action["action"] == "bet"
                or (action["action"] == "exchange" and not (last_draw_times_out and len(drawing) == 1))
            ]
            if not moves:
                expire = cmd.ExpireDeclare(live.deal_no, salts=fairdeck.new_salts(52))
                timed_out += session.do(expire, later(turn + 3600))
                continue
            player, action = moves[0]
            if action["action"] == "exchange":
                hand = [c for c in action["choices"] if c not in action.get("openers", [])]
                split = len(hand) < 4
                discards = list(action["choices"][:4]) if split else hand[:4]
                command: Any = cmd.Exchange(
                    player,
                    live.deal_no,
                    discards,
                    split_openers=split and bool(action.get("openers")),
                    salts=fairdeck.new_salts(52),
                )
            else:
                wanted = next(c for c in ("open", "call", "check", "fold") if c in action["choices"])
                command = cmd.Bet(player, live.deal_no, wanted)
            session.do(command, later(turn))
        reshuffles = timed_out if last_draw_times_out else session.events[first:]
        if any(e.type == "StockReshuffled" for e in reshuffles):
            return session, first
    raise AssertionError("no deal reshuffled its stock")


@pytest.mark.parametrize("last_draw_times_out", [False, True], ids=["drawn", "timed-out"])
def test_it_14_an_italian_reshuffle_on_the_short_pack_is_committed_and_every_role_verifies_it(
    last_draw_times_out: bool,
) -> None:
    session, first = italian_deal_with_a_reshuffle(last_draw_times_out=last_draw_times_out)
    events = session.events[first:]
    reshuffled = [e for e in events if e.type == "StockReshuffled"]
    assert all(e.root and len(e.salts) == e.count for e in reshuffled)
    salts = [salt for e in reshuffled for salt in e.salts]
    assert len(set(salts)) == len(salts)  # no salt commits two slots
    record = record_of(session, first)
    auditor = proof_json(record, AUDITOR)
    result, printed = verified(auditor)
    assert result == verify_deal.OK, printed
    assert "reshuffled stock 1 OK" in printed
    assert "short pack of 40 cards: 12 cards out of play" in printed
    assert auditor["pack"] == [str(card) for card in italian_pack(6)]
    for player in record.events[0].data["participants"]:
        proof = proof_json(record, Viewer(player))
        result, printed = verified(proof)
        assert result == verify_deal.OK, printed
        drawn = {c for e in events if e.type == "CardsDrawn" and e.player == player for c in e.drawn}
        assert drawn <= {opening["card"] for opening in proof["openings"]}
