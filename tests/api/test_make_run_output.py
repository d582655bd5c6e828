"""`make run` is quiet and friendly (README): Celery at WARNING unless asked, and once everything is
up `manage.py serve` prints last where it serves, at the address it serves, and the demo logins
seed_demo wrote to var/demo-tokens.txt."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from guts_backend import celery as celery_app
from guts_backend.management.commands import serve
from guts_backend.management.commands.seed_demo import demo_text


def tokens_file(tmp_path: Path, base_url: str) -> Path:
    path = tmp_path / "demo-tokens.txt"
    path.write_text(demo_text([("admin", "a" * 40), ("alice", "b" * 40)], base_url))
    return path


def test_the_banner_names_the_served_address_and_ends_with_the_logins(tmp_path: Path) -> None:
    text = serve.banner("127.0.0.1:9300", tokens_file(tmp_path, "http://127.0.0.1:9300"))
    lines = text.rstrip("\n").splitlines()
    assert "Guts club backend is serving on http://127.0.0.1:9300" in text
    assert "http://127.0.0.1:9300/api/docs/" in text
    assert "8000" not in text
    assert "Served at:" not in text
    admin_at = next(i for i, line in enumerate(lines) if "a" * 40 in line)
    assert admin_at > next(i for i, line in enumerate(lines) if "ReDoc" in line)  # logins after the URLs
    assert lines[-1] == "Press Ctrl-C to stop."
    assert any("b" * 40 in line and "alice-demo" in line for line in lines[-8:])


def test_an_address_on_every_interface_is_printed_as_browsed_and_as_listened_on(tmp_path: Path) -> None:
    text = serve.banner("0.0.0.0:9301", tokens_file(tmp_path, "http://0.0.0.0:9301"))
    assert "serving on http://127.0.0.1:9301 (listening on 0.0.0.0:9301)" in text
    assert "http://0.0.0.0" not in text  # the logins' URLs too, rewritten to the browsable address
    assert "http://127.0.0.1:9301/admin/" in text


def test_without_demo_logins_the_banner_says_how_to_make_them(tmp_path: Path) -> None:
    assert "run `manage.py seed_demo`" in serve.banner("127.0.0.1:9302", tmp_path / "missing.txt")


def test_celery_runs_at_warning_without_its_banner_unless_asked(settings: Any) -> None:
    argv = serve.Command._celery("worker")
    assert "--loglevel=WARNING" in argv
    assert "--quiet" in argv
    settings.GUTS_CELERY_LOG_LEVEL = "INFO"
    argv = serve.Command._celery("worker")
    assert "--loglevel=INFO" in argv
    assert "--quiet" not in argv


def test_uvicorn_logs_at_the_configured_level(settings: Any) -> None:
    settings.GUTS_SERVER_LOG_LEVEL = "warning"
    argv = serve.Command._uvicorn("127.0.0.1:9303")
    assert argv[argv.index("--log-level") + 1] == "warning"


@pytest.mark.parametrize(("level", "said"), [(logging.WARNING, True), (logging.INFO, False)])
def test_a_quiet_worker_and_beat_still_say_they_are_up(
    level: int, said: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    loggers = [logging.getLogger(name) for name in ("celery.apps.worker", "celery.beat")]
    before = [logger.level for logger in loggers]
    try:
        for logger in loggers:
            logger.setLevel(level)
        celery_app._say_worker_ready(sender=type("Consumer", (), {"hostname": "celery@test"})())
        celery_app._say_beat_starting()
    finally:
        for logger, old in zip(loggers, before, strict=True):
            logger.setLevel(old)
    out = capsys.readouterr().out
    assert ("celery@test ready." in out) is said  # what serve and the e2e tests wait for
    assert ("beat: Starting..." in out) is said
