"""Django admin: read-only windows on the event log and the balance projections, and the pages staff
work with: players by name with their bankrolls, and the cashier's transactions.

Events are append-only facts and projections are derived from them, so nobody (superusers
included) may add, change or delete any of these rows through the admin. The only writes are the
player page's forms (rename, deposit, withdraw), for club admins, and they go through the same
services as the API (`player_rename`, `cashier_deposit`, `cashier_withdraw`): events with the admin
as actor, never a model save. Changelists filter only on their declared `list_filter`
(http_edge.admin_filters): a lookup on `data` would be an oracle for a live deal's hidden cards.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from http_edge.admin_filters import DeclaredFiltersOnly
from http_edge.roles import is_club_admin
from ledger.cashier import MAX_CASHIER_AMOUNT, cashier_deposit, cashier_withdraw, player_rename
from ledger.errors import DomainError
from ledger.models import AccountBalance, AccountEntry, CashierTransaction, Event, PlayerName
from ledger.money import UNIT_CHIPS, player_account
from ledger.names import MAX_NAME_LENGTH, account_names, player_names
from ledger.selectors import CASHIER_EVENTS, balance_and_held


class ReadOnlyAdmin(DeclaredFiltersOnly, admin.ModelAdmin):
    """View only: no add, change or delete permission for anyone, no bulk actions, and no filters
    but the declared ones."""

    actions = None

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("position", "stream", "version", "type", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream", "type", "=position")
    ordering = ("position",)
    show_full_result_count = False  # the log grows without bound; skip the second COUNT(*)


@admin.register(AccountBalance)
class AccountBalanceAdmin(ReadOnlyAdmin):
    list_display = ("account", "named", "unit", "balance")
    list_filter = ("unit",)
    search_fields = ("account",)
    ordering = ("account", "unit")

    @admin.display(description="whose")
    def named(self, obj: AccountBalance) -> str:
        return account_names([obj.account]).get(obj.account, "")


@admin.register(AccountEntry)
class AccountEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "position",
        "account",
        "unit",
        "amount",
        "balance_after",
        "counterparty",
        "reason",
        "event_type",
        "stream",
    )
    list_filter = ("unit", "event_type")
    search_fields = ("account", "stream")
    ordering = ("position", "account")


# --- players, their bankrolls and the cashier -----------------------------------------------------


class RenameForm(forms.Form):
    display_name = forms.CharField(max_length=MAX_NAME_LENGTH, strip=False)


class CashierForm(forms.Form):
    operation = forms.ChoiceField(choices=[("deposit", "deposit"), ("withdrawal", "withdrawal")])
    amount = forms.IntegerField(min_value=1, max_value=MAX_CASHIER_AMOUNT)
    note = forms.CharField(max_length=500, required=False)


@admin.register(PlayerName)
class PlayerAdmin(ReadOnlyAdmin):
    """Players by name, with their username, bankroll (posted, held by disputes) and whether they
    are active. A club admin renames a player or takes a deposit or pays a withdrawal from the
    player's page, through the services (the events name the admin as actor)."""

    list_display = ("player_id", "name", "username", "bankroll", "held", "active")
    search_fields = ("name", "=player_id")
    ordering = ("key",)
    fields = ("player_id", "name", "username", "bankroll", "held", "active", "actions_for_staff")
    readonly_fields = fields

    def _user(self, obj: PlayerName) -> Any:
        return get_user_model().objects.filter(pk=obj.player_id).first()

    @admin.display(description="username")
    def username(self, obj: PlayerName) -> str:
        user = self._user(obj)
        return user.get_username() if user is not None else ""

    @admin.display(description="bankroll (posted)")
    def bankroll(self, obj: PlayerName) -> int:
        return balance_and_held(player_account(obj.player_id), UNIT_CHIPS)[0]

    @admin.display(description="held by disputes")
    def held(self, obj: PlayerName) -> int:
        return balance_and_held(player_account(obj.player_id), UNIT_CHIPS)[1]

    @admin.display(description="active", boolean=True)
    def active(self, obj: PlayerName) -> bool:
        user = self._user(obj)
        return bool(user is not None and user.is_active)

    @admin.display(description="staff actions")
    def actions_for_staff(self, obj: PlayerName) -> str:
        return format_html(
            '<a href="{}">Rename</a> · <a href="{}">Deposit or withdraw</a>',
            reverse("admin:ledger_playername_rename", args=[obj.player_id]),
            reverse("admin:ledger_playername_cashier", args=[obj.player_id]),
        )

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:player_id>/rename/", wrap(self.rename_view), name="ledger_playername_rename"),
            path("<int:player_id>/cashier/", wrap(self.cashier_view), name="ledger_playername_cashier"),
            *super().get_urls(),
        ]

    def rename_view(self, request: HttpRequest, player_id: int) -> HttpResponse:
        return self._service_form(request, player_id, RenameForm, "Rename", self._rename)

    def cashier_view(self, request: HttpRequest, player_id: int) -> HttpResponse:
        return self._service_form(request, player_id, CashierForm, "Deposit or withdraw", self._cashier)

    def _rename(self, player_id: int, data: dict[str, Any], meta: dict[str, Any]) -> str:
        player_rename(player_id=player_id, display_name=data["display_name"], meta=meta)
        return f"Renamed to {player_names([player_id]).get(str(player_id))}."

    def _cashier(self, player_id: int, data: dict[str, Any], meta: dict[str, Any]) -> str:
        service = cashier_deposit if data["operation"] == "deposit" else cashier_withdraw
        result = service(player_id=player_id, amount=data["amount"], note=data["note"], meta=meta)
        return f"{data['operation'].capitalize()} of {data['amount']} recorded; bankroll {result.balance}."

    def _service_form(
        self, request: HttpRequest, player_id: int, form_class: type[forms.Form], title: str, run: Any
    ) -> HttpResponse:
        """A form whose submission calls a service as the admin (club admins only); a refusal is
        shown on the form with its code, and nothing was appended."""
        if not is_club_admin(request.user):
            raise PermissionDenied
        player = PlayerName.objects.filter(player_id=player_id).first()
        if player is None:
            raise PermissionDenied
        form = form_class(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                done = run(player_id, form.cleaned_data, {"actor": request.user.pk, "source": "admin"})
            except DomainError as refusal:
                form.add_error(None, f"{refusal} ({refusal.code})")
            else:
                self.message_user(request, done, messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:ledger_playername_change", args=[player_id]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"{title}: {player.name}",
            "form": form,
            "opts": self.model._meta,
            "player": player,
        }
        return TemplateResponse(request, "admin/ledger/player_form.html", context)


@admin.register(CashierTransaction)
class CashierTransactionAdmin(ReadOnlyAdmin):
    """The cashier's deposits and withdrawals, newest first, by player name (nothing else of the
    log: a cashier event holds no secret)."""

    list_display = ("position", "recorded_at", "player", "kind", "amount", "note", "actor")
    list_filter = ("type",)
    search_fields = ("stream", "=position")
    ordering = ("-position",)
    fields = ("position", "recorded_at", "stream", "player", "kind", "amount", "note", "actor", "hash")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[CashierTransaction]:
        return super().get_queryset(request).filter(type__in=CASHIER_EVENTS)

    @admin.display(description="player")
    def player(self, obj: Event) -> str:
        player = str(obj.data.get("player_id"))
        return f"{player_names([player]).get(player, '?')} (#{player})"

    @admin.display(description="transaction")
    def kind(self, obj: Event) -> str:
        return "deposit" if obj.type == "DepositMade" else "withdrawal"

    @admin.display(description="amount")
    def amount(self, obj: Event) -> int:
        return int(obj.data.get("amount", 0))

    @admin.display(description="note")
    def note(self, obj: Event) -> str:
        return str(obj.data.get("note", ""))

    @admin.display(description="by")
    def actor(self, obj: Event) -> str:
        actor = obj.meta.get("actor")
        return player_names([actor]).get(str(actor), "") if actor is not None else ""
