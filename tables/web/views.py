"""The pages: parse the URL, call the API's own selectors for the signed-in user's Viewer, render.

Who may see what is decided where the API decides it: the replay, the deal list and the table
view come from the selectors behind their API twins (`deal_replay`, `table_deals` + `deal_json`,
`table_get`), each for `viewer_of(request.user)`; a statement is refused by the same
`check_can_read_account`; names follow `can_view_player` (GET /players/{id}). Errors are the
domain errors of those selectors, shown with the status of their code in the one problem map.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date
from typing import Any
from uuid import UUID

from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from http_edge.api.errors import status_of
from http_edge.roles import is_auditor, is_club_admin, player_id_of
from ledger.errors import DomainError as LedgerRefusal
from ledger.store import read_stream
from tables import selectors
from tables.audit.replay import deal_replay
from tables.audit.statements import account_entries, check_can_read_account, explained_lines
from tables.engine.decider.errors import DomainError as EngineRefusal
from tables.engine.decider.events import BY_TYPE
from tables.engine.variants import variant_catalog
from tables.state import table_stream
from tables.web.controls import controls_for
from tables.web.login import ThrottledLoginForm
from tables.web.present import Names, account_words, event_display, player_ids_in, table_display

PAGE_SIZE = 25
View = Callable[..., HttpResponse]


def page_errors(view: View) -> View:
    """A refusal of the selectors as a page, with its code's status (404 unknown_table, 403 ...)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except (LedgerRefusal, EngineRefusal) as error:
            return render(
                request,
                "web/error.html",
                {"code": error.code, "message": str(error)},
                status=status_of(error.code),
            )

    return wrapped


def page(view: View) -> View:
    """Signed in (else to the login page), refusals as pages, never cached by a browser."""
    return login_required(never_cache(page_errors(view)))


class LoginPage(LoginView):
    """Session login with the usual accounts, throttled as the API's token login is."""

    template_name = "web/login.html"
    form_class = ThrottledLoginForm
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return reverse("web-lobby") if player_id_of(self.request.user) is not None else reverse("web-audit")


@require_POST
def logout_page(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("web-login")


def statement_account(request: HttpRequest) -> str | None:
    """The caller's own bankroll account, for the navigation (players only)."""
    player = player_id_of(request.user)
    return f"player:{player}" if player is not None else None


def variant_titles() -> dict[str, str]:
    return {variant["name"]: variant["title"] for variant in variant_catalog()}


def parse_date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def parse_uuid(text: str | None) -> UUID | None:
    try:
        return UUID(text.strip()) if text else None
    except ValueError:
        return None


def table_rows(request: HttpRequest, *, status: str | None = None) -> dict[str, Any]:
    """A page of tables (GET /api/v1/tables: every signed-in user), filtered as the form asks."""
    variant = request.GET.get("variant") or None
    opened_on = parse_date(request.GET.get("date"))
    tables = selectors.table_list(
        status=status, variant=variant, opened_on=opened_on, table_id=parse_uuid(request.GET.get("table"))
    )
    listing = Paginator(tables, PAGE_SIZE).get_page(request.GET.get("page"))
    titles = variant_titles()
    for table in listing:
        table.title = titles.get(table.variant, table.variant)
    return {
        "tables": listing,
        "titles": titles,
        "variants": sorted(titles.items(), key=lambda kv: kv[1]),
        "chosen": {
            "variant": variant or "",
            "date": opened_on.isoformat() if opened_on else "",
            "table": request.GET.get("table", ""),
        },
    }


@page
def audit_index(request: HttpRequest) -> HttpResponse:
    """Pick a table by variant, date or id; then a deal."""
    return render(
        request,
        "web/audit_index.html",
        {**table_rows(request), "nav": "audit", "own_account": statement_account(request)},
    )


@page
def audit_table(request: HttpRequest, table_id: UUID) -> HttpResponse:
    """A table's deals, newest first, each as the caller may see it (GET .../deals)."""
    viewer = selectors.viewer_of(request.user)
    listing = Paginator(selectors.table_deals(table_id=table_id), PAGE_SIZE).get_page(request.GET.get("page"))
    deals = [selectors.deal_json(deal, viewer) for deal in listing]
    names = Names(request.user, player_ids_in(deals))
    rows = [
        {
            **deal,
            "names": ", ".join(names[p] for p in deal["participants"]),
            "winner_names": ", ".join(names[p] for p in deal["winners"]),
        }
        for deal in deals
    ]
    view = selectors.table_get(table_id=table_id, viewer=viewer, now=timezone.now()).view
    return render(
        request,
        "web/audit_table.html",
        {
            "table_id": str(table_id),
            "table": view,
            "title": variant_titles().get(view["variant"], view["variant"]),
            "deals": rows,
            "listing": listing,
            "nav": "audit",
            "own_account": statement_account(request),
        },
    )


@page
def audit_replay(request: HttpRequest, table_id: UUID, deal_no: int) -> HttpResponse:
    """The replay console: every step drawn as the caller may see it (GET .../replay); the
    browser checks the chain and the proof itself (static/web/checks.js)."""
    replay = deal_replay(table_id=table_id, deal_no=deal_no, viewer=selectors.viewer_of(request.user))
    names = Names(request.user, player_ids_in(replay))
    steps = [
        {
            "event": step["event"],
            "table": table_display(step["state"], names),
            "shown": event_display(step["event"]["type"], step["event"]["data"], names),
        }
        for step in replay["steps"]
    ]
    variant = replay["rules"]["variant"]
    return render(
        request,
        "web/replay.html",
        {
            "replay": replay,
            "steps": steps,
            "before": table_display(replay["before"], names),
            "title": variant_titles().get(variant, variant),
            "names": names.as_dict(player_ids_in(replay)),
            "table_id": str(table_id),
            "deal_no": deal_no,
            "nav": "audit",
            "own_account": statement_account(request),
            "api": {
                "replay": reverse("deal-replay", kwargs={"table_id": table_id, "deal_no": deal_no}),
                "proof": reverse("deal-proof", kwargs={"table_id": table_id, "deal_no": deal_no}),
                "events": reverse("table-events", kwargs={"table_id": table_id}),
            },
        },
    )


@page
def audit_statement(request: HttpRequest, account: str) -> HttpResponse:
    """An account's statement, each line linked to its deal's replay (GET .../statement)."""
    check_can_read_account(request.user, account)
    unit = request.GET.get("unit") or None
    listing = Paginator(account_entries(account=account, unit=unit), 50).get_page(request.GET.get("page"))
    lines = explained_lines(list(listing))
    accounts = [{"from": account}, *({"to": line["counterparty"]} for line in lines)]
    names = Names(request.user, player_ids_in(accounts))
    for line in lines:
        line["counterparty_words"] = account_words(line["counterparty"], names)
        line["counterparty_readable"] = may_read_account(request, line["counterparty"])
        line["reason_words"] = line["reason"].replace("_", " ")
    return render(
        request,
        "web/statement.html",
        {
            "account": account,
            "account_words": account_words(account, names),
            "lines": lines,
            "listing": listing,
            "unit": unit or "",
            "nav": "statement",
            "own_account": statement_account(request),
            "may_pick": is_auditor(request.user) or is_club_admin(request.user),
        },
    )


def may_read_account(request: HttpRequest, account: str) -> bool:
    try:
        check_can_read_account(request.user, account)
    except LedgerRefusal:
        return False
    return True


@page
def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables, to watch or to sit down at."""
    return render(
        request,
        "web/lobby.html",
        {**table_rows(request, status="open"), "nav": "tables", "own_account": statement_account(request)},
    )


def live_context(request: HttpRequest, table_id: UUID) -> dict[str, Any]:
    """The table as GET /api/v1/tables/{id} serves it to this user, drawn, with his controls."""
    viewer = selectors.viewer_of(request.user)
    sight = selectors.table_get(table_id=table_id, viewer=viewer, now=timezone.now())
    names = Names(request.user, player_ids_in(sight.view))
    return {
        "table_id": str(table_id),
        "sight": sight,
        "table": table_display(sight.view, names),
        "controls": controls_for(sight.view["legal_actions"]),
        "title": variant_titles().get(sight.view["variant"], sight.view["variant"]),
    }


@page
def live_table(request: HttpRequest, table_id: UUID) -> HttpResponse:
    """The live table: its view, redrawn on every event of the table's SSE stream."""
    context = live_context(request, table_id)
    version = context["sight"].version
    head = read_stream(table_stream(table_id), from_version=version, to_version=version)
    return render(
        request,
        "web/live.html",
        {
            **context,
            "nav": "tables",
            "own_account": statement_account(request),
            "after": head[0].position if head else 0,
            "event_types": sorted(BY_TYPE),
            "api": {
                "table": reverse("table-detail", kwargs={"table_id": table_id}),
                "tickets": reverse("table-stream-tickets", kwargs={"table_id": table_id}),
                "panel": reverse("web-table-panel", kwargs={"table_id": table_id}),
            },
        },
    )


@page
def live_panel(request: HttpRequest, table_id: UUID) -> HttpResponse:
    """The live table's drawing and controls alone, fetched again after each event."""
    context = live_context(request, table_id)
    response = render(request, "web/_live_panel.html", context)
    response["X-Table-Version"] = str(context["sight"].version)
    return response
