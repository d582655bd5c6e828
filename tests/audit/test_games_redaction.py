"""The redaction walk of every read endpoint, every role, every step of each new game.

After each command of a scripted session of Two plus One, Four-Two-Two, Four-Two-Three and
Three-Five-Seven (stacked decks built from the script itself), every endpoint that shows deal data
(the table, its deal summaries and each player's, the event feed, the SSE stream, each deal's
replay, proof and hand history as JSON and text, the table's history downloads, the audit log) is
read by every role: each seated player, a player never seated, a club admin and an auditor.
Each answer must be 200 (403 where the role may not read it; 409 for a live deal's proof), and:

- no card another player holds face down appears anywhere in its text (the raw JSON is searched
  for the card tokens, as tests/audit/test_redaction.py does), unless it was shown to everyone
  (G2-12, 357-23, 42X-02, 42X-03), compared privately with the reader (357-09, D-357-03), or the
  reader is an auditor and its deal is over (DESIGN §2.6);
- face-up cards (422-05), the board (423-02) and the deck's cards against a lone "in" (42X-03) are
  shown to every reader at once, in the table and in the events;
- a private comparison (357 stages one and two) shows its hands to the players compared only, and
  to auditors once the deal is over; everyone else learns who won;
- a sealed declare (SIM-01, 422-04, 357-06) reads "sealed" or null to everyone else until the
  window is revealed (SIM-04);
- and what a reader may see is actually there (own cards, public cards, his private comparisons),
  so the searches look where the cards would be.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from ledger.models import Event
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

SSE = {"GUTS_SSE_MAX_DURATION": 0.02, "GUTS_SSE_POLL": 0.01}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Each walk creates six users; PBKDF2 costs ~0.3 s each (test speed only)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


_VERIFIER = Path(__file__).parents[2] / "docs" / "verify_deal.py"  # the standalone client-side check
_spec = importlib.util.spec_from_file_location("verify_deal", _VERIFIER)
assert _spec is not None
assert _spec.loader is not None
verify_deal = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_deal)


# --- the scripts -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One command and what it makes happen, as the rules say (the deck is built from these).

    `dealt`, `up`: each player's new cards, in dealing order (the dealer's left first); `board`:
    community cards; `deck`: the deck's cards compared with a lone "in" (42X-03); `show`: players
    whose hands everyone now sees; `compare`: players whose hands are compared privately; `sealed`:
    a declare not revealed yet; `over`: the deal ends."""

    command: str  # "start" or "name:choice"
    dealt: dict[str, str] = field(default_factory=dict)
    up: dict[str, str] = field(default_factory=dict)
    board: str = ""
    deck: str = ""
    show: str = ""
    compare: str = ""
    sealed: bool = False
    over: bool = False


def deal_order(step: Step) -> list[str]:
    return list(step.dealt or step.up)


def round_robin(hands: dict[str, str]) -> list[str]:
    """D-G2-01: one card at a time, clockwise from the dealer's left."""
    split = [cards.split() for cards in hands.values()]
    return [cards[r] for r in range(max(map(len, split), default=0)) for cards in split if r < len(cards)]


def decks_of(script: list[Step]) -> list[list[str]]:
    """The stacked deck of each deal: the cards in the order the script deals them."""
    decks: list[list[str]] = []
    for step in script:
        if step.command == "start":
            decks.append([])
        decks[-1] += [
            *round_robin(step.dealt),
            *round_robin(step.up),
            *step.board.split(),
            *step.deck.split(),
        ]
    every = [card for deck in decks for card in deck]
    assert len(every) == len(set(every)), "the walk needs each card once per table"
    return decks


def start(dealt: dict[str, str]) -> Step:
    return Step("start", dealt=dealt)


# Three-Five-Seven (357-01..25), sealed declares. Deal 1 is dealt b, c, a; deal 2 c, a, b.
THREE_FIVE_SEVEN = [
    start({"b": "Ah Ad Ac", "c": "Kh Kd 9c", "a": "2c 4d 6h"}),
    Step("b:in", sealed=True),
    Step("a:out", sealed=True),
    Step("c:in", compare="bc", dealt={"b": "8s 9s", "c": "2s 4s", "a": "Ts Tc"}),  # 357-09
    Step("b:out", sealed=True),
    Step("a:in", sealed=True),
    Step("c:in", compare="ac", dealt={"b": "Jd Qc", "c": "6c 8c", "a": "Th Td"}),  # D-357-03
    Step("c:out", sealed=True),
    Step("b:out", sealed=True),
    Step("a:in", over=True),  # a leg
    start({"c": "As Ks Qs", "a": "Js 3s 5s", "b": "7s 3c 5c"}),
    Step("a:out", sealed=True),
    Step("b:out", sealed=True),
    Step("c:out", dealt={"c": "7c Jc", "a": "Qd Jh", "b": "9h 9d"}),  # 357-07
    Step("c:out", sealed=True),
    Step("a:out", sealed=True),
    Step("b:in", dealt={"c": "Kc Qh", "a": "8h 8d", "b": "5h 4h"}),  # 357-16: a leg
    Step("b:in", sealed=True),
    Step("a:out", sealed=True),
    Step("c:in", show="bc", over=True),  # 357-23
]

# Two plus One (TPO-01..04, D-TPO-01) with the extra ante and a second declare, in turn.
TWO_PLUS_ONE = [
    start({"b": "Ks Kd", "c": "Qs Qd", "a": "2c 9h"}),
    Step("b:in"),
    Step("c:in"),
    Step("a:out", dealt={"b": "4s", "c": "8h"}),  # TPO-02
    Step("b:in"),
    Step("c:in", show="bc", over=True),  # TPO-03
    start({"c": "Jc Tc", "a": "4c 6d", "b": "Ac 3d"}),
    Step("c:in"),
    Step("a:out"),
    Step("b:out", over=True),  # D-TPO-01
    start({"a": "As Ah", "b": "Kc Kh", "c": "5d 6s"}),
    Step("a:in"),
    Step("b:in"),
    Step("c:out", dealt={"a": "Ad", "b": "2d"}),
    Step("a:in"),
    Step("b:out", over=True),  # TPO-04
]

# Four-Two-Two (422, 42X): face-up cards, all out (42X-02), a lone "in" (422-08).
FOUR_TWO_TWO = [
    start({"b": "Ah Ad 9c 8c", "c": "Kh Kd 9d 8d", "a": "Jc Tc 6c 4c"}),
    Step("b:in", sealed=True),
    Step("a:out", sealed=True),
    Step("c:in", up={"b": "As Ac", "c": "Ks Kc"}, show="bc", over=True),  # 422-05
    start({"c": "Js Jd 6h 4h", "a": "Th 9s 8s 6s", "b": "Qs Qc 2h 3d"}),
    Step("c:out", sealed=True),
    Step("b:out", sealed=True),
    Step("a:out", show="cab", over=True),  # 42X-02
    start({"a": "Qh Qd 9h 8h", "b": "2s 3s 4s 5s", "c": "7c 7d 7h 5c"}),
    Step("b:out", sealed=True),
    Step("c:out", sealed=True),
    Step("a:in", over=True),  # 422-08
]

# Four-Two-Three (423) with LONE_IN_VS_DECK4 (42X-03): the board, the deck against a lone "in".
FOUR_TWO_THREE = [
    start({"b": "Ah Kd 9c 8c", "c": "Qh Jd 9d 8d", "a": "Tc 6c 4c 3c"}),
    Step("a:out", sealed=True),
    Step("b:in", sealed=True),
    Step("c:in", board="As Ad Kh", show="bc", over=True),  # 423-02/03
    start({"c": "Js Jc 6h 4h", "a": "Th 9s 8s 6s", "b": "Qs Qc 2h 3d"}),
    Step("c:in", sealed=True),
    Step("b:out", sealed=True),
    Step("a:out", deck="7d 7h 5c 5d", show="c", over=True),  # 42X-03
    start({"a": "Qd Td 9h 8h", "b": "2s 3s 4s 5s", "c": "7c 7s Ts 5h"}),
    Step("b:out", sealed=True),
    Step("c:out", sealed=True),
    Step("a:out", board="Kc Jh 6d", show="abc", over=True),  # 42X-02: on the four held
]

# Monte Carlo (MC, MCA-02): sealed declares, replenishing, a lone "in" against the deck's top two
# cards (his cards and theirs shown to all), everyone out (MC-15: nobody shows). Ante 1: the
# minimum buy-in is 100 antes (MC-08). Deal 1 is dealt b, c, a; deal 2 c, a, b; deal 3 a, b, c.
MONTE_CARLO = [
    start({"b": "Ah Ad 9c", "c": "Kh Kd 8c", "a": "5s 4h 2c"}),
    Step("b:in", sealed=True),
    Step("a:out", sealed=True),
    Step("c:in", show="bc", over=True),  # MC-11, 12
    start({"c": "Qs Js 7d", "a": "Ts 9s 3d", "b": "6c 6d 2d"}),
    Step("c:out", sealed=True),
    Step("a:out", sealed=True),
    Step("b:in", deck="2h 3h", show="b", over=True),  # MCA-02
    start({"a": "Jh Tc 4d", "b": "Qc 8h 5d", "c": "Kc 9h 3c"}),
    Step("a:out", sealed=True),
    Step("b:out", sealed=True),
    Step("c:out", over=True),  # MC-15
]

# Consecutive Guts (CONS-01..05, EX-06): five cards, sequential declares, a showdown of the best
# three of five with pair-made wilds, then a lone "in" who is not shown (CONS-05).
CONSECUTIVE = [
    start({"b": "8h Qd 3c 7s Qs", "c": "Kc Kd 9c 5s 2d", "a": "Ts 8d 6h 4h 2c"}),
    Step("b:in"),
    Step("c:in"),
    Step("a:out", show="bc", over=True),  # EX-06
    start({"c": "As Ks Js 9d 4d", "a": "7c 7d 7h 5c 3s", "b": "Ah Jh 9h 6s 3d"}),
    Step("c:out"),
    Step("a:in"),
    Step("b:out", over=True),  # CONS-05
]

# Alternating Guts (ALT-01/02, EX-07): everyone in, every hand shown.
ALTERNATING = [
    start({"b": "Ah Ad 8c Js 6s", "c": "Kc Kd 9c 5s 2d", "a": "Th 7h 4d 3d 2h"}),
    Step("b:in"),
    Step("c:in"),
    Step("a:in", show="bca", over=True),  # EX-07
]

GAMES = {
    "consecutive": (CONSECUTIVE, {}),
    "alternating": (ALTERNATING, {}),
    "monte_carlo": (MONTE_CARLO, {"ante": 1, "lone_in": "vs_deck"}),
    "two_plus_one": (TWO_PLUS_ONE, {"extra_ante_redeclare": True}),
    "four_two_two": (FOUR_TWO_TWO, {"max_loss": 25}),
    "four_two_three": (FOUR_TWO_THREE, {"lone_in": "vs_deck"}),
    "three_five_seven": (THREE_FIVE_SEVEN, {"declare_mode": "simultaneous"}),
}


# --- what is true, from the script ----------------------------------------------------------------


@dataclass
class DealTruth:
    """What really happened in one deal, by player id."""

    deal_no: int
    order: list[str]
    hole: dict[str, list[str]] = field(default_factory=dict)  # face-down cards held
    up: dict[str, list[str]] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    public: set[str] = field(default_factory=set)  # seen by everyone
    private: dict[str, set[str]] = field(default_factory=dict)  # learnt in private comparisons
    comparisons: list[frozenset[str]] = field(default_factory=list)
    sealed: dict[str, str] = field(default_factory=dict)  # declared, not revealed
    over: bool = False

    def apply(self, step: Step, ids: dict[str, str]) -> None:
        for name, cards in step.up.items():
            self.up.setdefault(ids[name], []).extend(cards.split())
            self.public |= set(cards.split())
        self.board += step.board.split()
        self.public |= {*step.board.split(), *step.deck.split()}
        for name in step.show:
            self.public |= set(self.hole[ids[name]])
        compared = frozenset(ids[name] for name in step.compare)
        if compared:
            self.comparisons.append(compared)
            for player in compared:
                self.private.setdefault(player, set()).update(
                    card for other in compared - {player} for card in self.hole[other]
                )
        for name, cards in step.dealt.items():  # the next stage's cards, after the comparison
            self.hole.setdefault(ids[name], []).extend(cards.split())
        if step.command != "start":
            name, choice = step.command.split(":")
            if step.sealed:
                self.sealed[ids[name]] = choice
            else:
                self.sealed.clear()  # SIM-04: the window is revealed
        if step.over:
            self.over = True
            self.sealed.clear()


@dataclass(frozen=True)
class Reader:
    client: APIClient
    player: str | None
    role: str  # player | admin | auditor

    def __str__(self) -> str:
        return f"{self.role} {self.player or ''}".strip()

    def sees_all(self, deal: DealTruth) -> bool:
        return self.role == "auditor" and deal.over

    def hidden(self, deals: list[DealTruth]) -> set[str]:
        """Cards this reader may not see now: others' face-down cards, unless shown to everyone,
        compared with him, or the deal is over and he is an auditor."""
        out: set[str] = set()
        for deal in deals:
            if self.sees_all(deal):
                continue
            known = deal.public | deal.private.get(self.player or "", set())
            out |= {
                card
                for player, cards in deal.hole.items()
                if player != self.player
                for card in cards
                if card not in known
            }
        return out

    def visible(self, deals: list[DealTruth]) -> set[str]:
        out: set[str] = set()
        for deal in deals:
            mine = self.player or ""
            out |= deal.public | deal.private.get(mine, set()) | set(deal.hole.get(mine, []))
            if self.sees_all(deal):
                out |= {card for cards in deal.hole.values() for card in cards}
        return out


# --- reading every endpoint ------------------------------------------------------------------------


@dataclass
class Answer:
    url: str
    status: int
    text: str
    body: Any  # parsed JSON (SSE: the list of event data), None for text


def read(reader: Reader, url: str) -> Answer:
    try:
        response = reader.client.get(url)
    except Exception as error:  # a 500 raised through the test client
        raise AssertionError(f"{reader} GET {url} raised {error!r}") from error
    content = b"".join(response.streaming_content) if response.streaming else response.content
    text = content.decode()
    kind = response.get("Content-Type", "")
    body: Any = None
    if kind.startswith("text/event-stream"):
        body = [json.loads(line[len("data: ") :]) for line in text.splitlines() if line.startswith("data: ")]
    elif kind.startswith(("application/json", "application/problem+json")):
        body = json.loads(text)
        text = json.dumps(without_pack(body))
    return Answer(url, response.status_code, text, body)


def without_pack(value: Any) -> Any:
    """The body without the pack (public knowledge: every card) and a recomputed deck."""
    if isinstance(value, dict):
        return {key: without_pack(item) for key, item in value.items() if key not in ("pack", "deck")}
    if isinstance(value, list):
        return [without_pack(item) for item in value]
    return value


def urls(table: str, deals: list[int], players: list[str], reader: Reader) -> Iterator[tuple[str, set[int]]]:
    """(url, statuses allowed besides 200) of every read endpoint that shows deal data; of the
    per-deal ones, those of `deals`."""
    base = table_url(table)
    yield base, set()
    yield "/api/v1/tables", set()
    yield f"{base}/deals", set()
    yield f"{base}/events?limit=500", set()
    yield f"{base}/stream", set()
    yield f"{base}/history.json", set()
    yield f"{base}/history.txt", set()
    for deal_no in deals:
        deal = f"{base}/deals/{deal_no}"
        yield f"{deal}/replay", set()
        yield f"{deal}/proof", {409}  # deal_not_finished while live
        yield f"{deal}/history?format=json", set()
        yield f"{deal}/history?format=text", set()
    for player in players:
        readable = reader.role != "player" or reader.player == player
        yield f"/api/v1/players/{player}/deals", set() if readable else {403}
    yield "/api/v1/audit/events?limit=500", set() if reader.role != "player" else {403}


# --- the checks ------------------------------------------------------------------------------------

CARD = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs])(?![0-9A-Za-z])")


def card_tokens(text: str) -> set[str]:
    """Every card written as a whole token in `text` ("As", not the "as" of a word or a hash)."""
    return set(CARD.findall(text))


def dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every object inside a JSON value, depth first."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from dicts(item)
    elif isinstance(value, list):
        for item in value:
            yield from dicts(item)


def check_events(reader: Reader, answer: Answer, deals: dict[int, DealTruth]) -> None:
    """Every event (or stage result) in the body, wherever it is: sealed declares, private
    comparisons, face-up and board cards."""
    for item in dicts(answer.body):
        kind, data = item.get("type"), item.get("data")
        if not isinstance(data, dict) or "deal_no" not in data or data["deal_no"] not in deals:
            continue
        deal = deals[data["deal_no"]]
        where = f"{reader} {answer.url}: {kind} {data}"
        if kind == "Declared" and data.get("sealed"):
            own = data["player"] == reader.player
            assert (data["choice"] is not None) == (own or deal.over), where  # SIM-01
        elif kind == "ShowdownHeld" and data.get("private"):
            compared = frozenset(data["winners"]) | frozenset(data["losers"])
            assert compared in deal.comparisons, where
            allowed = reader.player in compared or reader.sees_all(deal)  # D-357-03
            assert (data["hands"] is not None) == allowed, where
        elif kind == "CardsDealt" and data.get("face") == "up":
            assert data["cards"] == deal.up[data["player"]], where  # 422-05
        elif kind == "BoardDealt":
            assert data["cards"] == deal.board, where  # 423-02
        elif kind == "DeckCompared":
            assert data["cards"] == deal.hole[data["player"]], where  # 42X-03


def check_sealed(reader: Reader, answer: Answer, live: DealTruth) -> None:
    """The choices of the open sealed window read "sealed" or null to anyone else (SIM-01)."""
    others = {player for player in live.sealed if player != reader.player}
    if not others:
        return
    body = answer.body
    if isinstance(body, dict) and "steps" in body:  # a replay: the earlier windows were revealed
        body = body["steps"][-1]
    for item in dicts(body):
        if item.get("deal_no") != live.deal_no:
            continue
        for key in ("players", "hands"):
            entries = item.get(key)
            for entry in entries if isinstance(entries, list) else ():
                if not isinstance(entry, dict) or entry.get("player") not in others:
                    continue
                assert entry.get("declared") in (None, "sealed"), f"{reader} {answer.url}: {entry}"
    if answer.body is None:  # a text history: "declared sealed"
        for player in others:
            lines = re.findall(rf"\(#{player}\): [^;\n]*; declared (\w+)", section(answer.text, live))
            for declared in lines:
                assert declared == "sealed", f"{reader} {answer.url}: {player} declared {declared}"


def section(text: str, deal: DealTruth) -> str:
    """The part of a text history about one deal."""
    parts = re.split(r"(?m)^(?=Deal \d+ \(game)", text)
    return "".join(part for part in parts if part.startswith(f"Deal {deal.deal_no} "))


def check_table(reader: Reader, view: dict[str, Any], live: DealTruth) -> None:
    """GET /tables/{id}: face-up cards and the board for everyone; hands by the rule."""
    deal = view["deal"]
    assert deal["deal_no"] == live.deal_no
    assert [p["player"] for p in deal["players"]] == live.order
    assert deal["board"] == live.board, reader  # 423-02
    for entry in deal["players"]:
        player = entry["player"]
        assert entry["face_up"] == live.up.get(player, []), (str(reader), entry)  # 422-05
        hole = live.hole.get(player, [])
        held = sorted([*hole, *live.up.get(player, [])])
        if player == reader.player or reader.sees_all(live) or set(hole) <= live.public:
            assert entry["cards"] is not None, (str(reader), entry)
            assert sorted(entry["cards"]) == held, (str(reader), entry)
        elif entry["cards"] is not None:  # only a hand compared with the reader's
            known = live.public | live.private.get(reader.player or "", set())
            assert set(entry["cards"]) <= known, (str(reader), entry)
        if player == reader.player and player in live.sealed:
            assert entry["declared"] == live.sealed[player], (str(reader), entry)


def check_answer(reader: Reader, view: dict[str, Any], deals: dict[int, DealTruth]) -> None:
    """A command's answer is the table as its caller may see it (the admin starts the deals)."""
    live = deals[max(deals)]
    text = json.dumps(view)
    assert not card_tokens(text) & reader.hidden(list(deals.values())), (str(reader), "command answer")
    check_table(reader, view, live)
    check_sealed(reader, Answer("command answer", 200, text, view), live)


def walk(
    readers: list[Reader], table: str, players: list[str], deals: dict[int, DealTruth], changed: list[int]
) -> None:
    """Every reader reads every endpoint (per-deal ones of the deals in `changed`: a finished
    deal's replay, proof and history never change again)."""
    live = deals[max(deals)]
    truths = list(deals.values())
    for reader in readers:
        hidden, seen = reader.hidden(truths), set()
        for url, allowed in urls(table, changed, players, reader):
            answer = read(reader, url)
            assert answer.status in {200, *allowed}, (str(reader), url, answer.status, answer.text[:300])
            if answer.status != 200:
                continue
            found = card_tokens(answer.text)
            assert not found & hidden, (str(reader), url, found & hidden)
            check_events(reader, answer, deals)
            check_sealed(reader, answer, live)
            if url == table_url(table):
                check_table(reader, answer.body, live)
            seen |= found
        missing = reader.visible(truths) - seen
        assert not missing, (str(reader), "does not see", missing)


@override_settings(**SSE)
@pytest.mark.parametrize("variant", list(GAMES))
def test_every_endpoint_shows_every_role_only_what_it_may_see_at_every_step(variant: str) -> None:
    script, options = GAMES[variant]
    club = Club.create(players=3, bankroll=5000)
    body = {
        "variant": variant,
        "options": {"ante": 10, "min_buy_in": 100, **options},
        "stacked_decks": decks_of(script),
    }
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(club.admin, "/api/v1/tables", body)
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 1000)
    players = [str(player) for player in club.players]
    ids = dict(zip("abc", players, strict=True))
    readers = [Reader(client, str(pid), "player") for pid, client in club.players.items()]
    readers += [
        Reader(club.outsider, None, "player"),
        Reader(club.admin, None, "admin"),
        Reader(club.auditor, None, "auditor"),
    ]
    deals: dict[int, DealTruth] = {}
    for step in script:
        if step.command == "start":
            response = post(club.admin, table_url(table, "deals"))
            deal_no = len(deals) + 1
            deals[deal_no] = DealTruth(deal_no, [ids[name] for name in deal_order(step)])
        else:
            name, choice = step.command.split(":")
            response = post(
                club.players[int(ids[name])],
                table_url(table, "declares"),
                {"deal_no": len(deals), "choice": choice},
            )
        assert response.status_code == 200, (step, response.content)
        live = deals[len(deals)]
        live.apply(step, ids)
        assert response.json()["deal"]["over"] == live.over, step
        admin = readers[-2]
        actor = admin if step.command == "start" else next(r for r in readers if r.player == ids[name])
        check_answer(actor, response.json(), deals)
        walk(readers, table, players, deals, [live.deal_no])
    assert all(deal.over for deal in deals.values())


# --- seeded deals: the proof and the served chain ---------------------------------------------------

SEEDED = {  # (options, the declares of each deal: windows of "name:choice" in posting order)
    "two_plus_one": ({}, [["b:in", "c:in", "a:out"]]),
    "four_two_two": ({}, [["b:in", "c:in", "a:out"]]),
    "four_two_three": ({"lone_in": "vs_deck"}, [["b:in", "c:in", "a:out"], ["c:in", "a:out", "b:out"]]),
    "three_five_seven": ({}, [["b:in", "c:in", "a:out", "b:out", "c:in", "a:in", "b:in", "c:out", "a:in"]]),
}


def stored_truth(table: str, deal_no: int) -> tuple[dict[str, list[str]], set[str], dict[str, set[str]]]:
    """(face-down cards held, cards public, cards each player learnt privately) of a deal, read from
    the log behind the API."""
    rows = Event.objects.filter(stream=f"table-{table}").order_by("position").values_list("type", "data")
    hole: dict[str, list[str]] = {}
    public: set[str] = set()
    private: dict[str, set[str]] = {}
    for kind, data in rows:
        if data.get("deal_no") != deal_no:
            continue
        if kind == "CardsDealt":
            if data["face"] == "up":
                public |= set(data["cards"])
            else:
                hole[data["player"]] = data["cards"]
        elif kind == "BoardDealt":
            public |= set(data["cards"])
        elif kind == "DeckCompared":
            public |= {*data["cards"], *data["deck_cards"]}
        elif kind == "ShowdownHeld":
            hands = {hand["player"]: set(hand["cards"]) for hand in data["hands"]}
            for player in hands:
                if data.get("private"):
                    private.setdefault(player, set()).update(*(c for p, c in hands.items() if p != player))
                else:
                    public |= hands[player]
    return hole, public, private


def check_feed_chain(reader: Reader, table: str) -> None:
    """The served chain re-checks for every reader, private comparisons and board included."""
    events = reader.client.get(f"{table_url(table)}/events", {"limit": 500}).json()["results"]
    out = io.StringIO()
    assert verify_deal.verify_chain(events, out) == verify_deal.OK, (str(reader), out.getvalue())


@pytest.mark.parametrize("variant", list(SEEDED))
def test_a_seeded_deal_proves_fair_to_every_role_and_its_proof_hides_what_it_must(variant: str) -> None:
    """DESIGN §2.7 for the new games: every card that left the deck (face down, face up, the board,
    the deck's four against a lone "in") is checked in dealing order, by the service and by
    docs/verify_deal.py; each reader gets every verdict but only the cards he may see; the served
    hash chain re-checks for everyone during and after the deal (salted commitments, §2.6)."""
    options, deals = SEEDED[variant]
    club = Club.create(players=3, bankroll=5000)
    response = post(club.admin, "/api/v1/tables", {"variant": variant, "options": {"ante": 10, **options}})
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 1000)
    ids = dict(zip("abc", (str(p) for p in club.players), strict=True))
    readers = [Reader(client, str(pid), "player") for pid, client in club.players.items()]
    readers += [
        Reader(club.outsider, None, "player"),
        Reader(club.admin, None, "admin"),
        Reader(club.auditor, None, "auditor"),
    ]
    for deal_no, moves in enumerate(deals, start=1):
        assert post(club.admin, table_url(table, "deals")).status_code == 200
        for move in moves:
            name, choice = move.split(":")
            answer = post(
                club.players[int(ids[name])],
                table_url(table, "declares"),
                {"deal_no": deal_no, "choice": choice},
            )
            assert answer.status_code == 200, (move, answer.content)
            for reader in readers:
                check_feed_chain(reader, table)
        assert answer.json()["deal"]["over"]
        hole, public, private = stored_truth(table, deal_no)
        for reader in readers:
            check_proof(reader, table, deal_no, hole, public, private)


def check_proof(
    reader: Reader,
    table: str,
    deal_no: int,
    hole: dict[str, list[str]],
    public: set[str],
    private: dict[str, set[str]],
) -> None:
    base = f"{table_url(table)}/deals/{deal_no}"
    proof = reader.client.get(f"{base}/proof").json()
    assert (proof["provable"], proof["ok"], proof["commitment_ok"]) == (True, True, True), str(reader)
    out = io.StringIO()
    assert verify_deal.verify(proof, out) == verify_deal.OK, (str(reader), out.getvalue())
    dealt = [entry["card"] for entry in proof["dealt"]]
    assert all(entry["matches"] for entry in proof["dealt"])
    assert len(dealt) == sum(map(len, hole.values())) + len(public - {c for h in hole.values() for c in h})
    if reader.role == "auditor":
        assert proof["deck"][: len(dealt)] == dealt
        assert None not in dealt
        return
    assert proof["deck"] is None
    for entry in proof["dealt"]:
        mine = entry["player"] == reader.player
        if mine or entry["player"] in ("board", "deck"):
            assert entry["card"] is not None, (str(reader), entry)
        elif entry["card"] is not None:  # a face-up card, or a hand compared with his
            assert entry["card"] in public | private.get(reader.player or "", set()), (str(reader), entry)
    known = public | private.get(reader.player or "", set())
    hidden = {card for player, cards in hole.items() if player != reader.player for card in cards} - known
    for url in (f"{base}/proof", f"{base}/history?format=json", f"{base}/history?format=text"):
        answer = read(reader, url)
        assert answer.status == 200, (str(reader), url)
        assert not card_tokens(answer.text) & hidden, (str(reader), url, card_tokens(answer.text) & hidden)
