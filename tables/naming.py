"""Names beside ids in what the tables app serves: players' display names (ledger.names) and the
tables' own names, so no screen has to show a number to a person.

- A table's name is recorded in its `TableOpened` (settable when it is opened; by default the
  variant's title and a number, "Two-card Guts #3"; a tournament names its tables after itself)
  and projected into `TableView.name`. A table opened before tables had names reads as its
  variant's title and the start of its id. Names never change, so each process keeps those it
  has read (`table_names`).
- A document (a table view, a deal, a page of them) gets `names`: {player id: display name} for
  every player id in it, found by walking the document as served, after redaction (`ids_in`),
  so a name is served exactly where its id is and nothing hidden is looked up. The document's own
  rows (seats, deal players, hands, standings) get `player_name` beside their `player` too; the
  events a document quotes are left as recorded (their data is hashed).
- A tournament's table also carries its tournament's name: the tournaments app registers the
  lookup (`register_tournament_names`; the tables app imports nothing of tournaments).

Names are labels people chose: they are never derived from a card, a seed or a sealed choice.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ledger.errors import DomainError
from ledger.names import CARD_WORD, MAX_ID_DIGITS, player_names
from tables.engine.decider.variants import VARIANTS
from tables.models import TableView

MAX_TABLE_NAME = 100
_KEPT = 10_000  # table names per process; they never change, so only the size is bounded
TournamentNames = Callable[[list[str]], dict[str, str]]
_lock = threading.Lock()
_table_names: dict[str, str] = {}
_tournament_lookup: list[TournamentNames] = []
_tournament_names: dict[str, str] = {}


class InvalidTableName(DomainError):
    code = "invalid_table_name"


def table_name_check(name: str) -> str:
    """A table name as given, trimmed: 1 to 100 characters, no control characters, no card word."""
    name = name.strip()
    if not 0 < len(name) <= MAX_TABLE_NAME or not name.isprintable() or CARD_WORD.search(name):
        raise InvalidTableName(
            f"a table name is 1 to {MAX_TABLE_NAME} printable characters with no word that reads as "
            f"a card: {name!r}",
            errors={"name": ["Not a valid table name."]},
        )
    return name


def tournament_table_name(tournament_name: str, number: int) -> str:
    """A tournament's table n: "Spring Cup · table 2" (just "Tournament table 2" should the
    tournament's name not make a table name)."""
    suffix = f" · table {number}"
    try:
        return table_name_check(tournament_name.strip()[: MAX_TABLE_NAME - len(suffix)] + suffix)
    except InvalidTableName:
        return f"Tournament table {number}"


def variant_title(variant: str) -> str:
    found = VARIANTS.get(variant)
    return found.title if found is not None else variant


def default_table_name(variant: str) -> str:
    """The variant's title and the number of its tables so far plus one: "Two-card Guts #3"."""
    return f"{variant_title(variant)} #{TableView.objects.filter(variant=variant).count() + 1}"


def _fallback(table_id: str, variant: str) -> str:
    return f"{variant_title(variant)} {table_id[:8]}"


def table_names(table_ids: Iterable[object]) -> dict[str, str]:
    """{table id: name} for the tables among `table_ids` (unknown ones are left out)."""
    wanted = {str(t) for t in table_ids}
    found = {t: _table_names[t] for t in wanted if t in _table_names}
    missing = wanted - found.keys()
    if missing:
        rows = TableView.objects.filter(table_id__in=list(missing)).values_list("table_id", "name", "variant")
        read = {str(t): name or _fallback(str(t), variant) for t, name, variant in rows}
        with _lock:
            if len(_table_names) + len(read) > _KEPT:
                _table_names.clear()
            _table_names.update(read)
        found.update(read)
    return found


def table_name(table_id: object) -> str | None:
    return table_names([table_id]).get(str(table_id))


def register_tournament_names(lookup: TournamentNames) -> None:
    """The tournaments app's ready(): how to name tournaments by id (their names never change)."""
    _tournament_lookup[:] = [lookup]


def tournament_names(tournament_ids: Iterable[object]) -> dict[str, str]:
    wanted = {str(t) for t in tournament_ids if t}
    missing = [t for t in wanted if t not in _tournament_names]
    if missing and _tournament_lookup:
        read = _tournament_lookup[0](missing)
        with _lock:
            if len(_tournament_names) + len(read) > _KEPT:
                _tournament_names.clear()
            _tournament_names.update(read)
    return {t: _tournament_names[t] for t in wanted if t in _tournament_names}


def forget_names() -> None:
    """Drop what this process remembers (a rebuild, tests that reuse ids)."""
    with _lock:
        _table_names.clear()
        _tournament_names.clear()


# --- players' names beside their ids --------------------------------------------------------------


def ids_in(document: Any) -> Iterator[str]:
    """Every string of the document (values and keys, at any depth) that reads as a player id."""
    found: set[str] = set()
    _collect_ids(document, found)
    return iter(found)


def _collect_ids(item: Any, found: set[str]) -> None:
    if isinstance(item, str):
        if _reads_as_id(item):
            found.add(item)
    elif isinstance(item, dict):
        found.update(key for key in item if isinstance(key, str) and _reads_as_id(key))
        for value in item.values():
            _collect_ids(value, found)
    elif isinstance(item, list | tuple):
        for value in item:
            _collect_ids(value, found)


def _reads_as_id(text: str) -> bool:
    return text.isdigit() and text.isascii() and len(text) <= MAX_ID_DIGITS


def name_rows(rows: Any, names: dict[str, str]) -> None:
    """`player_name` beside `player` in each row (a dict) of `rows` that names a player."""
    for row in rows if isinstance(rows, list) else ():
        if isinstance(row, dict) and isinstance(row.get("player"), str):
            row["player_name"] = names.get(row["player"])


def with_player_names(
    document: dict[str, Any], rows: Iterable[Any] = (), names: dict[str, str] | None = None
) -> dict[str, Any]:
    """The document with `names` for every player id in it, and `player_name` in each of `rows`
    (lists of the document's own rows: never the events it quotes, whose data is hashed)."""
    found = set(ids_in(document))
    if names is None:
        names = player_names(found)
    names = {player: names[player] for player in found if player in names}
    for some in rows:
        name_rows(some, names)
    document["names"] = dict(sorted(names.items(), key=lambda item: int(item[0])))
    return document


def page_player_names(documents: Iterable[Any]) -> dict[str, str]:
    """The names of every player id on a page of documents, in one query."""
    return player_names(player for document in documents for player in ids_in(document))


def name_table_view(view: dict[str, Any]) -> dict[str, Any]:
    """A table view with the table's name, its tournament's, and its players' beside their ids."""
    table_id, tournament_id = view["table_id"], view.get("tournament_id")
    view["name"] = table_name(table_id) or _fallback(str(table_id), view.get("variant", ""))
    view["tournament_name"] = tournament_names([tournament_id]).get(tournament_id) if tournament_id else None
    deal = view.get("deal")
    return with_player_names(view, [view.get("seats"), deal.get("players") if deal else None])


def name_table_summaries(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of a table list (serialised TableView rows) with the table's name, its tournament's and
    the names of the players it shows (dealer, turn): one lookup of each kind for the page."""
    tables = table_names(row["table_id"] for row in rows)
    tournaments = tournament_names(row.get("tournament_id") for row in rows)
    names = page_player_names(rows)
    for row in rows:
        row["name"] = tables.get(row["table_id"]) or _fallback(row["table_id"], row.get("variant", ""))
        row["tournament_name"] = tournaments.get(row.get("tournament_id") or "")
        with_player_names(row, (), names)
    return rows


def table_account_names(accounts: list[str]) -> dict[str, str]:
    """Names of a table's accounts (ledger.names.account_names asks): "Ann's seat at Two-card Guts
    #3", "the pot of ...", "the reserve of ...", "the bets at ..."."""
    parts = [account.split(":") for account in accounts]
    tables = table_names(p[1] for p in parts if len(p) >= 2)
    owners = player_names(p[2] for p in parts if len(p) == 3)
    what = {"pot": "the pot of {}", "reserve": "the reserve of {}", "bets": "the bets at {}"}
    names = {}
    for account, p in zip(accounts, parts, strict=True):
        table = tables.get(p[1]) if len(p) >= 2 else None
        if table is None:
            continue
        if p[0] == "seat" and len(p) == 3 and p[2] in owners:
            names[account] = f"{owners[p[2]]}'s seat at {table}"
        elif p[0] in what and len(p) == 2:
            names[account] = what[p[0]].format(table)
    return names
