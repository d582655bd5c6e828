"""The session login form, throttled by the same limits as the API's token login (http_edge.login)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from rest_framework.exceptions import Throttled
from rest_framework.request import Request

from http_edge.api.errors import Problem
from http_edge.login import login_with_password


class ThrottledLoginForm(AuthenticationForm):
    """Django's login form, but failures count towards (and locks answer with) the API's limits."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            return self.cleaned_data
        try:
            self.user_cache = login_with_password(
                request=Request(self.request), username=username, password=password
            )
        except Problem as error:
            raise self.get_invalid_login_error() from error
        except Throttled as error:
            raise ValidationError(
                f"Too many failed logins: try again in {error.wait:.0f} seconds.", code="throttled"
            ) from error
        self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data
