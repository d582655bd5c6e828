"""The project imports and its configuration is sane."""

from django.core.management import call_command


def test_django_check_passes() -> None:
    call_command("check", fail_level="WARNING")
