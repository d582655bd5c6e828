"""The Guts decider (DESIGN §2.1): pure functions over immutable values, no Django.

- `decide.decide(state, command, now) -> list[Event]` (raises `errors.DomainError` with `.code`)
- `evolve.evolve(state, event) -> state` and `evolve.fold(events)`; `state.initial_state()`
- `state.state_to_json` / `state.state_from_json` for snapshots at deal boundaries
- `view.legal_actions`, `view.table_view`, `view.redact_event` for the read side

Commands are in `commands`, events in `events` (Event(type, data) with plain-JSON data).
Import from the submodules; this package module stays empty so `variants` can import `errors`.
"""
