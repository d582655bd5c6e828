"""`make run` as a newcomer sees it (README): migrate, `seed_demo --quiet`, `serve` in a fresh var/
with the embedded defaults; the banner with the served address and the demo logins comes after
the worker and beat are up, and an idle demo then prints nothing (Celery at WARNING)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.processes import WORKER_READY, celery_env, start
from tests.e2e.test_embedded_default import TOKEN_LINE, free_port, manage

pytestmark = pytest.mark.e2e

BANNER_END = "Press Ctrl-C to stop."
IDLE = 6.0  # seconds: beat's dispatcher runs every 0.25 s, so at INFO it would have said plenty


def test_the_logins_come_last_at_the_served_address_and_an_idle_demo_is_quiet(tmp_path: Path) -> None:
    env = celery_env(database_url=None, broker_url=None, queue=None, var_dir=tmp_path / "var")
    env.pop("GUTS_CELERY_LOG_LEVEL", None)
    manage(env, "migrate", "--noinput")
    addr = f"127.0.0.1:{free_port()}"
    seeded = manage(env, "seed_demo", "--quiet", "--base-url", f"http://{addr}")
    assert "demo-tokens.txt" in seeded
    assert not TOKEN_LINE.search(seeded)  # the tokens are printed once, last, by serve
    serve = start(
        "serve", [sys.executable, "manage.py", "serve", "--addr", addr], env, tmp_path / "serve.log"
    )
    try:
        serve.wait_for(BANNER_END, timeout=90)
        output = serve.output()
        assert output.index(WORKER_READY) < output.index("Guts club backend is serving on")
        assert output.index("beat: Starting...") < output.index("Guts club backend is serving on")
        banner = output[output.index("Guts club backend is serving on") :]
        assert f"http://{addr}/api/docs/" in banner
        assert "8000" not in banner.replace(addr, "")
        assert len(TOKEN_LINE.findall(banner)) == 6
        written = (tmp_path / "var" / "demo-tokens.txt").read_text()
        assert set(TOKEN_LINE.findall(banner)) == set(TOKEN_LINE.findall(written))

        settled = len(serve.output())
        time.sleep(IDLE)
        later = serve.output()[settled:]
        assert not re.search(r"\bINFO\b", later), later[:2000]
        assert later.strip() == "", later[:2000]
    finally:
        serve.stop(grace=5)
