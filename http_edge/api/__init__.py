"""The HTTP edge shared by every app's API: problem details and the one code-to-status map
(`errors`; guts_backend.handlers renders them, knowing the apps' error types), validated input
(`input`), pages (`paging`), the JSON parser, content negotiation and role-based permissions.
Services and selectors never import it."""
