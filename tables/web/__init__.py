"""Web pages for people: the auditor's replay console (/audit/) and the live table (/tables/{id}/).

Server-rendered from the same selectors the API serves (the engine's views for the caller's
Viewer), with a little plain JavaScript under static/web/ and no build step."""
