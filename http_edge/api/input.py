"""Input: request bodies and query strings, validated by serializers into one problem each.

Bodies go through `validated`: 400 `invalid_input` with the errors of each field (or, when the only
fault is a value outside a choice, 400 `invalid_choice`, the engine's code for it). Numbers in a body
are `JsonIntegerField`s (amounts of chips `ChipAmountField`s): JSON integers, never strings, floats or
booleans.

Query strings: every GET's parameters go through `validated_query`, one error for all of them.
A parameter that is malformed (`?limit=abc`), given blank (`?since=`) or out of range is refused with
400 `invalid_query`, `errors` naming it, never silently replaced by a default (DRF's pagination
ignores a bad `limit`) and never passed on to the database (2^63 overflows PostgreSQL's bigint, so
every number here has an upper bound). Parameters a view does not declare are ignored.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from http_edge.api.errors import Problem

MAX_POSITION = 2**63 - 1  # the largest bigint: event positions, versions and offsets fit in it
BLANK = "May not be blank; leave the parameter out instead."


def validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request body validated by `serializer_class` (400 `invalid_input` otherwise)."""
    serializer = serializer_class(data=request.data)
    try:
        serializer.is_valid(raise_exception=True)
    except serializers.ValidationError as exc:
        if set(_error_codes(exc.get_codes())) == {"invalid_choice"}:
            raise Problem("invalid_choice", _first_message(exc.detail), errors=exc.detail) from exc
        raise
    return serializer.validated_data


def _error_codes(codes: Any) -> list[str]:
    """Every code in DRF's nested `get_codes()` structure."""
    if isinstance(codes, dict):
        return [code for value in codes.values() for code in _error_codes(value)]
    if isinstance(codes, list):
        return [code for value in codes for code in _error_codes(value)]
    return [codes]


def _first_message(detail: Any) -> str:
    """The first error message, prefixed with its field (`choice: "maybe" is not a valid choice.`)."""
    field, messages = next(iter(detail.items()))
    return f"{field}: {messages[0] if isinstance(messages, list) and messages else messages}"


NOT_AN_INTEGER = "Must be a JSON integer (not a string, float or bool)."


class JsonIntegerField(serializers.IntegerField):
    """A number in a request body: a JSON integer only. Strings, floats and booleans are refused,
    not coerced (DRF's IntegerField takes "5", 5.0 and True, through int()). Every integer of every
    request body is one (tests/api/test_body_integers.py walks the OpenAPI schema for them)."""

    default_error_messages = {"not_an_integer": NOT_AN_INTEGER}

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("not_an_integer")
        return super().to_internal_value(data)


class ChipAmountField(JsonIntegerField):
    """A chip amount (a bet, a bid, a buy-in, a deposit, an ante): a JSON integer in the smallest unit."""


class QuerySerializer(serializers.Serializer):
    """Base of the query serializers: a declared parameter given blank is an error, not absent.

    (DRF takes `?since=` as "not given" for an optional field, so a client's empty variable would
    quietly widen its query.)
    """

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        blank = {name: [BLANK] for name in self.fields if _given_blank(data, name)}
        try:
            values = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({**exc.detail, **blank}) from exc
        if blank:
            raise serializers.ValidationError(blank)
        return values


class QueryIntegerField(serializers.IntegerField):
    """A whole number in ASCII digits, within bounds. `int()` would also take '+5', ' 5', '5.0'
    and other scripts' digits; a query string has no reason to."""

    default_error_messages = {"invalid": "Must be a whole number written in digits 0-9."}

    def to_internal_value(self, data: Any) -> int:
        if not (isinstance(data, str) and data.isascii() and data.isdigit()):
            self.fail("invalid")
        return super().to_internal_value(data)


def validated_query(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The query string validated by `serializer_class` (400 `invalid_query` otherwise)."""
    return validated_params(serializer_class, request.query_params)


def validated_params(serializer_class: type[serializers.Serializer], params: Any) -> dict[str, Any]:
    """`params` (a QueryDict or a plain dict of strings) validated by `serializer_class`."""
    serializer = serializer_class(data=params)
    if not serializer.is_valid():
        names = ", ".join(sorted(serializer.errors))
        raise Problem("invalid_query", f"Bad query parameter: {names}.", errors=serializer.errors)
    return serializer.validated_data


def _given_blank(data: Any, name: str) -> bool:
    values = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
    return any(isinstance(value, str) and not value.strip() for value in values)
