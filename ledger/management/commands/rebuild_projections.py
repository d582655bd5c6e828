"""`manage.py rebuild_projections`: drop every registered projection and replay the whole log."""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.projections import REBUILD_BATCH, rebuild_all

BAR_WIDTH = 30


class ProgressBar:
    """A one-line stderr bar, redrawn at most ten times a second."""

    def __init__(self) -> None:
        self.last_drawn = 0.0
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self.last_drawn < 0.1 and done < total:
            return
        self.last_drawn = now
        share = done / total if total else 1.0
        filled = int(share * BAR_WIDTH)
        rate = done / max(now - self.started, 1e-9)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {share:6.1%} {done}/{total} events {rate:,.0f}/s"
        )
        sys.stderr.flush()


class Command(BaseCommand):
    help = "Reset every registered projection and replay all events from position 0."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch-size", type=int, default=REBUILD_BATCH)
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        progress = None if options["quiet"] else ProgressBar()
        report = rebuild_all(batch_size=options["batch_size"], progress=progress)
        if progress:
            sys.stderr.write("\n")
        self.stdout.write(
            self.style.SUCCESS(
                f"Rebuilt {', '.join(report.projectors) or 'no projections'} from {report.events} events "
                f"in {report.seconds:.2f}s ({report.events_per_second:,.0f} events/s)"
            )
        )
