"""`manage.py verify_ledger`: check hash chains and conservation; exit 1 naming the first bad event."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.verify import verify_ledger


class Command(BaseCommand):
    help = "Walk every stream's hash chain and replay every transfer; exit non-zero if anything is wrong."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        report = verify_ledger()
        if options["json"]:
            self.stdout.write(json.dumps(report.to_json(), indent=2))
        counts = (
            f"{report.events} events in {report.streams} streams, {report.transfers} transfers, "
            f"units: {', '.join(report.units) or 'none'}, {report.holds_pending} hold(s) pending, "
            f"{report.checkpoints} checkpoint(s)"
        )
        if report.ok:
            self.stdout.write(self.style.SUCCESS(f"OK: {counts}"))
            return
        lines = []
        if report.first_broken:
            bad = report.first_broken
            lines.append(
                f"first broken event: stream {bad.stream} version {bad.version} "
                f"position {bad.position}: {bad.problem} "
                f"({report.broken_events} broken event(s) in all)"
            )
        lines += (
            report.conservation_problems
            + report.projection_problems
            + report.hold_problems
            + report.checkpoint_problems
        )
        raise CommandError(f"ledger verification FAILED ({counts})\n" + "\n".join(lines))
