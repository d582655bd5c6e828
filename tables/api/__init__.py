"""HTTP API of the tables app: variants, tables, seats, deals and declares (DESIGN §2.9)."""
