"""Content negotiation: an unknown `?format=` is 406 `not_acceptable`, like an unmet `Accept`.

DRF answers a format no renderer has with a bare `Http404` (our problem handler saw no code and no
detail); asking for a representation the resource does not have is the same fault whether it is
asked by the `Accept` header or by `?format=`, so both get one documented problem, rendered as JSON
(DRF would fall back to the view's first renderer: YAML for the schema). DRF imports this module
while it builds APIView, so it raises DRF's exception, not http_edge.api.errors.Problem.
"""

from __future__ import annotations

from collections.abc import Sequence

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request


class ProblemContentNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, refusing an unknown format with the formats on offer."""

    def select_renderer(
        self, request: Request, renderers: Sequence[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            # APIView.finalize_response renders the problem with whatever the request accepted.
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
            raise

    def filter_renderers(self, renderers: Sequence[BaseRenderer], format: str) -> list[BaseRenderer]:
        matching = [renderer for renderer in renderers if renderer.format == format]
        if not matching:
            offered = ", ".join(dict.fromkeys(renderer.format for renderer in renderers))
            raise NotAcceptable(f"Unknown format {format[:50]!r}; this resource is available as: {offered}.")
        return matching
