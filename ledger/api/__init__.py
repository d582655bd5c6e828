"""HTTP API of the ledger: auth, players, cashier, balances and statements (DESIGN §2.9)."""
