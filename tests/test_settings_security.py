"""Settings are safe by default: DEBUG is off unless asked for (its error pages show DATABASE_URL
and the broker URL), `make run` asks for it, and production settings pass `check --deploy`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "-production-secret-" + "9f3b1c7e" * 4,
    "ALLOWED_HOSTS": "guts.example.com",
}


def environment(tmp_path: Path, **overrides: str) -> dict[str, str]:
    """Our environment without any of the settings' variables, plus `overrides`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"} and not k.startswith("GUTS_")
    }
    return {
        **env,
        "DJANGO_SETTINGS_MODULE": "guts_backend.settings",
        "GUTS_VAR_DIR": str(tmp_path),
        **overrides,
    }


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def settings_of(env: dict[str, str], *names: str) -> dict[str, str]:
    """repr() of each named setting, as a process started with `env` sees it."""
    script = (
        "from django.conf import settings; "
        f"print('|'.join(repr(getattr(settings, name)) for name in {list(names)!r}))"
    )
    done = manage(env, "shell", "--verbosity", "0", "-c", script)
    assert done.returncode == 0, done.stderr
    return dict(zip(names, done.stdout.strip().split("|"), strict=True))


def test_debug_is_off_unless_asked_for(tmp_path: Path) -> None:
    assert settings_of(environment(tmp_path), "DEBUG") == {"DEBUG": "False"}


def test_debug_keeps_plain_http_for_make_run(tmp_path: Path) -> None:
    assert settings_of(
        environment(tmp_path, DEBUG="1"),
        "DEBUG",
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
    ) == {
        "DEBUG": "True",
        "SECURE_SSL_REDIRECT": "False",
        "SESSION_COOKIE_SECURE": "False",
        "SECURE_HSTS_SECONDS": "0",
    }


def test_make_run_turns_debug_on_for_the_server() -> None:
    run_target = re.search(r"^run:.*?(?=^\S)", (ROOT / "Makefile").read_text(), re.S | re.M)
    assert run_target is not None
    assert re.search(r"DEBUG=\$\$\{DEBUG:-1\} \S+ manage\.py serve", run_target.group(0))


def test_production_settings_pass_check_deploy(tmp_path: Path) -> None:
    done = manage(environment(tmp_path, **PRODUCTION), "check", "--deploy", "--fail-level", "DEBUG")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues (0 silenced)" in done.stdout


def test_check_deploy_flags_the_embedded_secret_key(tmp_path: Path) -> None:
    env = environment(tmp_path, DEBUG="0", ALLOWED_HOSTS="guts.example.com")
    done = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode != 0
    assert "security.W009" in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {},
            {
                "SECURE_SSL_REDIRECT": "True",
                "SESSION_COOKIE_SECURE": "True",
                "CSRF_COOKIE_SECURE": "True",
                "SECURE_HSTS_SECONDS": "31536000",
                "SECURE_PROXY_SSL_HEADER": "None",
            },
        ),
        (
            {"GUTS_SECURE_SSL_REDIRECT": "0", "GUTS_TRUST_X_FORWARDED_PROTO": "1", "GUTS_HSTS_SECONDS": "60"},
            {
                "SECURE_SSL_REDIRECT": "False",
                "SECURE_PROXY_SSL_HEADER": "('HTTP_X_FORWARDED_PROTO', 'https')",
                "SECURE_HSTS_SECONDS": "60",
            },
        ),
    ],
)
def test_https_settings_follow_the_environment(
    tmp_path: Path, overrides: dict[str, str], expected: dict[str, str]
) -> None:
    assert settings_of(environment(tmp_path, **PRODUCTION, **overrides), *expected) == expected
