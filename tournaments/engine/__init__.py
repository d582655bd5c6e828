"""The tournament decider: pure Python, no Django (DESIGN §2.1, §4).

`decide(state, command, now) -> events` and `evolve(state, event) -> state` over immutable values:
registration, the provable seating, ante levels, eliminations and places, balancing, payouts.
What the tables say (stacks, who is between deals) comes in as data in the `Reconcile` command;
what the tables must do (seat, move, remove, break, finish, set the ante) goes out as events that
the service turns into table commands in the same transaction (tournaments.service).
"""
