"""The redaction walk of Buddha's Folly and Wolfie's Lou: every read endpoint, every role, after
every command (the offers, the declare, the trump, each card of each trick).

The hardest hidden-information cases (BF-02..04, D-BF-01, WL-04..09, D-WL-02): the middle card and
every card put in its place are public at once, and so is every card played to a trick; the rest
of each hand stays private to its holder (auditors once the deal is over), during the deal and
after it (a Wolfie's Lou hand is never shown, nor an "out" player's); the questioning's ranking
(`TrumpChooserNamed.ranking`) is served to auditors only, once the deal is over. Each reader
(each seated player, a player never seated, a club admin, an auditor) reads the table, its deal
summaries and each player's, the event feed, the SSE stream, each deal's replay, proof and hand
history as JSON and text, the table's history downloads and the audit log: no card it may not see
appears as a token anywhere, and every card it may see (its own, the public ones) appears.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import override_settings

from tests.audit.test_games_redaction import SSE, Answer, card_tokens, dicts, read, round_robin, urls
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class Truth:
    """One deal as it really went, by name: each hand now, the public cards, whether it is over."""

    hands: dict[str, list[str]]
    middle: str = ""  # Buddha's Folly's, face up
    public: set[str] = field(default_factory=set)
    over: bool = False
    ever: dict[str, set[str]] = field(default_factory=dict)  # every card a player held

    def __post_init__(self) -> None:
        self.ever = {name: set(cards) for name, cards in self.hands.items()}


@dataclass(frozen=True)
class Reader:
    client: Any
    name: str | None  # the seat's name, None for non-players
    player: str | None
    role: str

    def __str__(self) -> str:
        return f"{self.role} {self.name or ''}".strip()

    def hidden(self, deals: list[Truth]) -> set[str]:
        out: set[str] = set()
        for deal in deals:
            if self.role == "auditor" and deal.over:
                continue
            out |= {
                card
                for name, cards in deal.ever.items()
                if name != self.name
                for card in cards
                if card not in deal.public
            }
        return out

    def visible(self, deals: list[Truth]) -> set[str]:
        out: set[str] = set()
        for deal in deals:
            out |= deal.public | deal.ever.get(self.name or "", set())
            if self.role == "auditor" and deal.over:
                out |= {card for cards in deal.ever.values() for card in cards}
        return out


# Buddha's Folly: b takes the middle Th for his two, c takes the two for his four, a and b leave;
# a sealed declare, b and c in; b's flush wins (BF-06).
BF_HANDS = {"b": "Ah Kh Qh Jh 2c", "c": "9s 9d 4c 5d 7d", "a": "As Ks 8s 8d 2d"}
BF_MIDDLE = "Th"
BF_SCRIPT = [
    "b:offer:take:2c",
    "c:offer:take:4c",
    "a:offer:leave",
    "b:offer:leave",
    "b:declare:in",
    "a:declare:out",
    "c:declare:in",
]

# Wolfie's Lou: everybody stands pat, b and c in, a out (a's hand is never shown); b's flush
# chooses no trump; five tricks.
WL_HANDS = {"b": "Ah Kh 4h 3h 2h", "c": "Ad Kd Qs Js 9c", "a": "Qc Qd 8s 7s 6c"}
WL_SCRIPT = [
    "b:draw",
    "c:draw",
    "a:draw",
    "b:declare:in",
    "c:declare:in",
    "a:declare:out",
    "b:trump:no_trump",
    "b:play:Ah",
    "c:play:Ad",
    "b:play:2h",
    "c:play:9c",
    "c:play:Kd",
    "b:play:3h",
    "c:play:Qs",
    "b:play:4h",
    "c:play:Js",
    "b:play:Kh",
]

GAMES = {
    "buddhas_folly": (BF_HANDS, [BF_MIDDLE], BF_SCRIPT),
    "wolfies_lou": (WL_HANDS, ["5c", "5d"], WL_SCRIPT),
}


def apply(truth: Truth, move: list[str]) -> tuple[str, dict[str, Any]]:
    """The endpoint and body of a move, and what it makes public."""
    name, kind, *rest = move
    if kind == "offer":
        if rest[0] == "take":
            middle = truth.middle
            truth.hands[name].remove(rest[1])
            truth.hands[name].append(middle)
            truth.ever[name].add(middle)
            truth.public.add(rest[1])
            truth.middle = rest[1]
            return "offers", {"action": "take", "card": rest[1]}
        return "offers", {"action": "leave"}
    if kind == "declare":
        return "declares", {"choice": rest[0]}
    if kind == "draw":
        return "exchanges", {"discards": []}
    if kind == "trump":
        return "trump", {"trump": rest[0]}
    truth.hands[name].remove(rest[0])
    truth.public.add(rest[0])
    return "plays", {"card": rest[0]}


def check_table(reader: Reader, view: dict[str, Any], truth: Truth, ids: dict[str, str]) -> None:
    """GET /tables/{id}: a player's own unplayed cards, nobody else's (until an auditor's deal is
    over), and the middle card and the tricks for everyone."""
    names = {pid: name for name, pid in ids.items()}
    for entry in view["deal"]["players"]:
        name = names[entry["player"]]
        assert entry["card_count"] == len(truth.hands[name])
        if name == reader.name or (reader.role == "auditor" and truth.over):
            assert sorted(entry["cards"]) == sorted(truth.hands[name]), (str(reader), entry)
        elif entry["cards"] is not None:
            assert set(entry["cards"]) <= truth.public, (str(reader), entry)  # G2-12 shown (BF-06)


def check_ranking(reader: Reader, answer: Answer, truth: Truth) -> None:
    """D-WL-02: the questioning's ranking for auditors once the deal is over, else null."""
    for item in dicts(answer.body):
        data = item.get("data")
        if item.get("type") == "TrumpChooserNamed" and isinstance(data, dict):
            allowed = reader.role == "auditor" and truth.over
            assert (data["ranking"] is not None) == allowed, (str(reader), answer.url, data)


@override_settings(**SSE)
@pytest.mark.parametrize("variant", list(GAMES))
def test_every_endpoint_shows_every_role_only_what_it_may_see_at_every_step(variant: str) -> None:
    hands, stock, script = GAMES[variant]
    club = Club.create(players=3, bankroll=5000)
    deck = [*round_robin(hands), *stock]
    body = {"variant": variant, "options": {"ante": 10, "min_buy_in": 100}, "stacked_decks": [deck]}
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(club.admin, "/api/v1/tables", body)
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 1000)
    players = [str(player) for player in club.players]
    ids = dict(zip("abc", players, strict=True))
    names = {pid: name for name, pid in ids.items()}
    readers = [Reader(client, names[str(pid)], str(pid), "player") for pid, client in club.players.items()]
    readers += [
        Reader(club.outsider, None, None, "player"),
        Reader(club.admin, None, None, "admin"),
        Reader(club.auditor, None, None, "auditor"),
    ]
    truth = Truth({name: cards.split() for name, cards in hands.items()}, middle=stock[0])
    if variant == "buddhas_folly":
        truth.public.add(stock[0])  # BF-02: face up
    assert post(club.admin, table_url(table, "deals")).status_code == 200
    walk(readers, table, players, truth, ids)
    for move in script:
        name = move.split(":")[0]
        endpoint, data = apply(truth, move.split(":"))
        response = post(club.players[int(ids[name])], table_url(table, endpoint), {"deal_no": 1, **data})
        assert response.status_code == 200, (move, response.content)
        view = response.json()
        if view["deal"]["over"]:
            truth.over = True
            if variant == "buddhas_folly":  # BF-06: b and c shown
                truth.public |= set(truth.hands["b"]) | set(truth.hands["c"])
        walk(readers, table, players, truth, ids)
    assert truth.over


def walk(readers: list[Reader], table: str, players: list[str], truth: Truth, ids: dict[str, str]) -> None:
    for reader in readers:
        hidden, seen = reader.hidden([truth]), set()
        for url, allowed in urls(table, [1], players, reader):  # type: ignore[arg-type]
            answer = read(reader, url)  # type: ignore[arg-type]  # same fields
            assert answer.status in {200, *allowed}, (str(reader), url, answer.status, answer.text[:300])
            if answer.status != 200:
                continue
            found = card_tokens(answer.text)
            assert not found & hidden, (str(reader), url, found & hidden)
            check_ranking(reader, answer, truth)
            if url == table_url(table):
                check_table(reader, answer.body, truth, ids)
            seen |= found
        missing = reader.visible([truth]) - seen
        assert not missing, (str(reader), "does not see", missing)
