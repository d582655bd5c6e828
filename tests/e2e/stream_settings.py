"""Settings of the e2e web server: the production settings, plus the live-stream timings from the
environment so a test can shorten them (GUTS_SSE_MAX_DURATION, GUTS_SSE_HEARTBEAT,
GUTS_SSE_SAFETY_POLL; seconds)."""

import os

from guts_backend.settings import *  # noqa: F403

for _name in ("GUTS_SSE_MAX_DURATION", "GUTS_SSE_HEARTBEAT", "GUTS_SSE_SAFETY_POLL"):
    if _name in os.environ:
        globals()[_name] = float(os.environ[_name])
