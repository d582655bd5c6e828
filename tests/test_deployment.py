"""docker-compose.yml cannot run here (no Docker engine), so its shape is checked instead
(tests/e2e/test_streams_under_load.py runs its web command against a local PostgreSQL)."""

import importlib.util
import json
import re
from pathlib import Path

import yaml

from tests.e2e.servers import compose_web_argv

ROOT = Path(__file__).resolve().parent.parent


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_has_the_five_services_each_with_a_healthcheck() -> None:
    services = compose()["services"]
    assert set(services) >= {"postgres", "redis", "web", "worker", "beat"}
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert "healthcheck" in services[name], name


def test_app_services_use_postgres_and_redis_and_wait_for_them() -> None:
    services = compose()["services"]
    for name in ("web", "worker", "beat"):
        service = services[name]
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["CELERY_BROKER_URL"].startswith("redis://")
        assert env["DEBUG"] == "0"
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def dockerfile_cmd() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return json.loads(re.search(r"^CMD (\[.*\])$", text, re.MULTILINE).group(1))


def test_commands_run_gunicorn_celery_worker_and_beat() -> None:
    services = compose()["services"]
    assert compose_web_argv()[:2] == ["gunicorn", "guts_backend.asgi:application"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "guts_backend", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "guts_backend", "beat"]


def test_the_web_service_runs_asgi_uvicorn_workers_and_the_image_runs_the_same() -> None:
    argv = compose_web_argv()
    worker_class = argv[argv.index("--worker-class") + 1]
    assert worker_class == "uvicorn_worker.UvicornWorker"
    assert importlib.util.find_spec(worker_class.rpartition(".")[0]), "pyproject.toml installs it"
    assert int(argv[argv.index("--timeout") + 1]) >= 10  # a loop heartbeat, not a request limit
    assert dockerfile_cmd() == argv


def test_the_image_builds_from_the_project_dockerfile() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11" in dockerfile
    # every app the settings install
    for app in ("guts_backend", "http_edge", "ledger", "tables", "tournaments"):
        assert f"COPY {app} ./{app}" in dockerfile
    assert all(
        service.get("build") == "."
        for name, service in compose()["services"].items()
        if name in {"web", "worker", "beat"}
    )
