"""The tables service's and the audit reads' own domain errors (ledger.errors). The rules engine's
refusals (not_your_turn, deal_over, ...) are the engine's DomainError and pass through unchanged."""

from __future__ import annotations

from ledger.errors import DomainError


class UnknownTable(DomainError):
    code = "unknown_table"

    def __init__(self, table_id: object) -> None:
        super().__init__(f"No table {table_id}.")


class StaleVersion(DomainError):
    """The table is not at the version the client acted on (its If-Match)."""

    code = "stale_version"

    def __init__(self, expected: int, actual: int | None) -> None:
        found = f"at version {actual}" if actual is not None else "changed"
        super().__init__(f"The table is {found}, not {expected} (If-Match).", current_version=actual)


class UnknownDeal(DomainError):
    code = "unknown_deal"

    def __init__(self, table_id: object, deal_no: int) -> None:
        super().__init__(f"Table {table_id} has no deal {deal_no}.")


class DealNotFinished(DomainError):
    """The deal is still being played: its seed, and so its proof, is secret until it ends."""

    code = "deal_not_finished"

    def __init__(self, deal_no: int) -> None:
        super().__init__(f"Deal {deal_no} is still being played; its seed is secret until it ends.")


class VersionNotInDeal(DomainError):
    code = "version_not_in_deal"

    def __init__(self, version: int, deal_no: int, first: int, last: int) -> None:
        super().__init__(f"Version {version} is not an event of deal {deal_no} (versions {first} to {last}).")
