"""Tournament benchmark: a 200-player guts2 tournament played to completion through the
service on PostgreSQL, with automated declares. Not a test: prints one table.

    python bench/tournament.py [--players 200] [--seats 10] [--seed 1]

Runs in a scratch database it creates and drops on DATABASE_URL (default: the local PostgreSQL).
The clock is simulated: every command gets `now` from a clock that advances 0.2 s per declare and
3 s per reaction, so ante levels (3 minutes each) advance on schedule and pauses pass without
waiting; nothing is sent to Celery (GUTS_TOURNAMENT_TASKS=0): the loop itself does what the tasks
would, `tournament_tick` (the reaction: eliminations, breaks, balancing, antes, the next deals)
after every round of deals.

Rows: deals played, events appended (all streams), wall time, events/s, commands/s, and the
slowest reconcile that moved players (a balancing step: lock and read every table, decide,
move out + move in, append), with the mean reconcile. The peer, measured in the same run and
database (before and after the tournament, as the load swings): the raw ceiling of plain psycopg
single-row INSERT + COMMIT transactions (bench/event_store.RawCeiling), and the tournament's
events/s as a share of it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from event_store import DEFAULT_URL, RawCeiling, ScratchDatabase, setup_django  # noqa: E402

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def tick(self, seconds: float = 1.0) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def fields(players: int, seats: int) -> dict[str, Any]:
    return {
        "name": f"Bench {players}",
        "variant": "guts2",
        "options": {"declare_timeout": 60},
        "buy_in": 100,
        "fee": 10,
        "starting_chips": 1000,
        "seats_per_table": seats,
        "min_entrants": 10,
        "max_entrants": players,
        "start_at": T0.isoformat(),
        "levels": [{"ante": 5 * 2**i, "minutes": 3} for i in range(12)],
        "late_registration_level": 0,
        "payouts": [40, 25, 15, 10, 10],
        "pause_seconds": 2,
    }


def play_deal(table_id: str, clock: Clock, rng: random.Random) -> int:
    """Declare for whoever is awaited until the table's deal is over; the commands it took."""
    from tables import service as tables
    from tables.engine.decider import commands as tcmd
    from tables.state import load_table

    commands = 0
    while True:
        state = load_table(table_id).state
        deal = state.live
        if deal is None:
            return commands
        for player in deal.awaiting:
            choice = "in" if rng.random() < 0.45 else "out"
            tables.table_command(
                table_id=table_id, command=tcmd.Declare(player, deal.deal_no, choice), now=clock.tick(0.2)
            )
            commands += 1


def run(players: int, seats: int, seed: int) -> dict[str, Any]:
    from django.contrib.auth.hashers import make_password  # noqa: F401
    from django.test.utils import override_settings

    from ledger.cashier import cashier_deposit, player_create
    from ledger.money import check_conservation
    from ledger.store import count_events
    from tables.state import load_table
    from tournaments import service

    rng = random.Random(seed)
    clock = Clock()
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        ids = [player_create(username=f"bench{i}", password="x").pk for i in range(players)]
    for pk in ids:
        cashier_deposit(player_id=pk, amount=1_000)
    tid = service.tournament_create(fields=fields(players, seats), now=T0 - timedelta(hours=1)).tournament_id
    for pk in ids:
        service.tournament_register(tournament_id=tid, player_id=pk, now=T0 - timedelta(minutes=5))
    events_before = count_events()
    started = time.perf_counter()
    reconciles: list[tuple[float, int]] = []
    commands = 0
    result = service.tournament_tick(tournament_id=tid, now=clock.tick())
    for _ in range(200_000):
        state = result.state
        if state.status != "running":
            break
        for table_id in list(state.active_tables()):
            if load_table(table_id).state.live is not None:
                commands += play_deal(table_id, clock, rng)
        begun = time.perf_counter()
        result = service.tournament_tick(tournament_id=tid, now=clock.tick(3))
        moved = sum(1 for e in result.events if e.type == "EntrantMoved")
        reconciles.append((time.perf_counter() - begun, moved))
    wall = time.perf_counter() - started
    events = count_events() - events_before
    deals = sum(load_table(t).state.deal_no for t in result.state.tables)
    problems = check_conservation()
    balancing = [seconds for seconds, moved in reconciles if moved]
    return {
        "status": result.state.status,
        "winner": result.state.winner,
        "deals": deals,
        "events": events,
        "wall": wall,
        "commands": commands,
        "tables": len(result.state.tables),
        "slowest_balancing": max(balancing, default=0.0),
        "balancing_steps": len(balancing),
        "mean_reconcile": sum(s for s, _ in reconciles) / max(len(reconciles), 1),
        "reconciles": len(reconciles),
        "conservation": problems or "ok",
        "levels": result.state.level,
    }


def raw_rate(url: str, seconds: float = 2.0) -> float:
    """Single-row INSERT + COMMIT transactions per second, plain psycopg, for about `seconds`."""
    raw, done, spent = RawCeiling(url), 0, 0.0
    try:
        while spent < seconds:
            spent += raw.run(50, 1)
            done += 50
    finally:
        raw.close()
    return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ["GUTS_TOURNAMENT_TASKS"] = "0"
    with ScratchDatabase(os.environ.get("DATABASE_URL", DEFAULT_URL)) as scratch:
        setup_django(scratch.url)
        before = raw_rate(scratch.url)
        figures = run(args.players, args.seats, args.seed)
        ceiling = (before + raw_rate(scratch.url)) / 2
    events_per_second = figures["events"] / figures["wall"]
    rows = [
        ("players / tables opened", f"{args.players} / {figures['tables']}"),
        ("outcome", f"{figures['status']}, winner {figures['winner']}, level {figures['levels']}"),
        ("deals played", f"{figures['deals']:,}"),
        ("events appended", f"{figures['events']:,}"),
        ("wall time", f"{figures['wall']:.1f} s"),
        ("events/s", f"{events_per_second:,.0f}"),
        (
            "raw ceiling (peer)",
            f"{ceiling:,.0f} single-row tx/s (events/s = {events_per_second / ceiling:.2f}x)",
        ),
        ("declares/s", f"{figures['commands'] / figures['wall']:,.0f}"),
        ("reconciles (mean)", f"{figures['reconciles']:,} ({figures['mean_reconcile'] * 1000:.1f} ms)"),
        (
            "slowest balancing step",
            f"{figures['slowest_balancing'] * 1000:.1f} ms "
            f"(of {figures['balancing_steps']} that moved players)",
        ),
        ("conservation per unit", str(figures["conservation"])),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")


if __name__ == "__main__":
    main()
