"""The OpenAPI shapes the table API and the audit read side share: the legal actions' and a deal's
results' unions and the typed fields they are made of (apart from both, so neither imports the
other for them)."""
