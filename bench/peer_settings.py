"""The project's settings plus bench/peer_urls.py: the API and a minimal DRF peer, one server."""

from guts_backend.settings import *  # noqa: F403

ROOT_URLCONF = "bench.peer_urls"
