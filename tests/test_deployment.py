"""docker-compose.yml cannot run here (no Docker engine), so its shape is checked instead."""
from pathlib import Path

import yaml

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


def test_commands_run_gunicorn_celery_worker_and_beat() -> None:
    services = compose()["services"]
    assert "gunicorn guts_backend.wsgi:application" in services["web"]["command"]
    assert "migrate" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "guts_backend", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "guts_backend", "beat"]


def test_the_image_builds_from_the_project_dockerfile() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11" in dockerfile
    assert all(service.get("build") == "." for name, service in compose()["services"].items()
               if name in {"web", "worker", "beat"})
