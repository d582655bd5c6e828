"""The HTTP edge every API shares: authentication, API tokens and the principal cache, roles,
idempotency, the login throttle, and `api/` (problem details, input, paging, parsers, negotiation,
permissions, schema hooks). It imports none of the apps and nothing of the composition root
(guts_backend); the apps import it."""
