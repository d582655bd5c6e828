"""The Django admin is attacked as an oracle and as a way to strand chips.

1. Changelists filter only on the filters each admin declares: a lookup on anything else (JSON
   inside `data`, hidden hands in `DealSummary`, password hashes...) is refused with the same answer
   whatever its value, so a superuser cannot test guesses of a live deal's hole cards.
2. A user with chips or ledger history cannot be deleted (admin view, bulk action, plain ORM);
   the admin deactivates him instead, with an event on his stream.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import models, transaction
from django.test import Client
from django.urls import reverse

from http_edge.admin_filters import DeclaredFiltersOnly
from ledger.cashier import cashier_deposit, cashier_withdraw
from ledger.deactivation import PLAYER_DEACTIVATED, PLAYER_REACTIVATED, UserHasLedgerHistory
from ledger.models import Event
from ledger.money import balance, player_account, seat_account
from ledger.store import read_stream
from ledger.verify import verify_ledger
from tables import service
from tables.engine.decider import commands as cmd
from tables.models import DealSummary
from tables.state import cache, load_table
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

# Dealt one card at a time from the dealer's left (D-G2-01). No card here, written as text, is a
# substring of a stream name (hex UUIDs, "player-<n>") or of an event type, so a search that
# matched it could only have matched hidden data.
DECK = ["Ks", "Qs", "Js", "Kh", "Qh", "Jh"]
NOT_DEALT = ["Kc", "Qc", "Jc", "Kd", "Qd", "Jd"]

Funded = Callable[[int], AbstractUser]


@pytest.fixture(autouse=True)
def fresh_cache() -> Any:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def root(django_user_model: type[AbstractUser]) -> AbstractUser:
    return django_user_model.objects.create_superuser(username="root", password="root-password")


@pytest.fixture
def root_client(root: AbstractUser) -> Client:
    client = Client()
    client.force_login(root)
    return client


@pytest.fixture
def funded(make_player: Callable[..., AbstractUser]) -> Funded:
    def make(chips: int) -> AbstractUser:
        user = make_player()
        cashier_deposit(player_id=user.pk, amount=chips)
        return user

    return make


@dataclass(frozen=True)
class LiveDeal:
    table_id: str
    hands: dict[str, tuple[str, ...]]  # player -> hole cards, still hidden from everyone
    dealt: Event  # the first CardsDealt event of the deal

    def hand_of_dealt(self) -> tuple[str, ...]:
        return self.hands[self.dealt_player()]

    def dealt_player(self) -> str:
        return next(
            player
            for player, hand in self.hands.items()
            if Event.objects.filter(position=self.dealt.position, data__player=player).exists()
        )


@pytest.fixture
def live_deal(funded: Funded, settings: Any) -> LiveDeal:
    settings.GUTS_ALLOW_STACKED_DECKS = True
    players = [funded(1000).pk for _ in range(3)]
    table = service.table_open(variant="guts2", stacked_decks=[DECK], options={"ante": 10}).table_id
    for player in players:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 200))
    service.table_command(table_id=table, command=cmd.StartDeal())
    deal = load_table(table).state.live
    assert deal is not None
    assert not deal.over
    dealt = Event.objects.filter(stream=f"table-{table}", type="CardsDealt").order_by("position").first()
    return LiveDeal(table, dict(zip(deal.order, deal.hands, strict=True)), dealt)


def changelist(model: type[models.Model]) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def same_answer(client: Client, url: str, *queries: dict[str, str]) -> Any:
    """Every query gets the same status and the same bytes; returns the first response."""
    responses = [client.get(url, query) for query in queries]
    first = responses[0]
    for query, response in zip(queries[1:], responses[1:], strict=True):
        assert (response.status_code, response.content) == (first.status_code, first.content), query
    return first


def result_pks(response: Any) -> list[Any]:
    assert response.status_code == 200
    return [row.pk for row in response.context["cl"].result_list]


# 1. No oracle --------------------------------------------------------------------------------------


@pytest.mark.postgres
def test_a_json_lookup_on_event_data_answers_the_same_for_the_right_and_a_wrong_card(
    root_client: Client, live_deal: LiveDeal
) -> None:
    position, card = live_deal.dealt.position, live_deal.hand_of_dealt()[1]
    wrong = next(c for c in NOT_DEALT if c != card)
    # The lookup is a perfect oracle against the table itself: the admin must not pass it on.
    assert Event.objects.filter(position=position, data__cards__1=card).exists()
    assert not Event.objects.filter(position=position, data__cards__1=wrong).exists()

    url = changelist(Event)
    for lookup in ("data__cards__1", "data__cards__contains", "data__icontains", "data__contains"):
        response = same_answer(
            root_client,
            url,
            {"position": str(position), lookup: card},
            {"position": str(position), lookup: wrong},
        )
        assert response.status_code == 400, lookup
    response = same_answer(root_client, url, {"data__cards__1": card}, {"data__cards__1": wrong})
    assert response.status_code == 400


@pytest.mark.postgres
def test_hidden_hands_in_the_deal_summary_cannot_be_filtered_on(
    root_client: Client, live_deal: LiveDeal
) -> None:
    player, hand = live_deal.dealt_player(), live_deal.hand_of_dealt()
    wrong = next(c for c in NOT_DEALT if c != hand[0])
    summaries = DealSummary.objects.filter(table_id=live_deal.table_id)
    assert summaries.filter(**{f"hands__{player}__0": hand[0]}).exists()
    response = same_answer(
        root_client, changelist(DealSummary), {f"hands__{player}__0": hand[0]}, {f"hands__{player}__0": wrong}
    )
    assert response.status_code == 400


@pytest.mark.postgres
def test_searching_for_a_hidden_card_matches_nothing(root_client: Client, live_deal: LiveDeal) -> None:
    hidden = [card for hand in live_deal.hands.values() for card in hand]
    for model_admin in admin.site._registry.values():
        url = changelist(model_admin.model)
        if not model_admin.search_fields:
            continue
        for card, wrong in zip(hidden, NOT_DEALT, strict=True):
            found = result_pks(root_client.get(url, {"q": card}))
            assert found == result_pks(root_client.get(url, {"q": wrong})) == [], (url, card)


def test_every_undeclared_lookup_on_every_admin_is_refused_whatever_its_value(
    root_client: Client, funded: Funded
) -> None:
    funded(100)
    for model, model_admin in admin.site._registry.items():
        url = changelist(model)
        declared = declared_parameters(root_client, url)
        for field in model._meta.concrete_fields:
            lookups = [field.name, f"{field.name}__startswith", f"{field.name}__gt", f"{field.name}__isnull"]
            if isinstance(field, models.JSONField):
                lookups += [f"{field.name}__contains", f"{field.name}__cards__1", f"{field.name}__icontains"]
            for lookup in (name for name in lookups if name not in declared):
                response = same_answer(root_client, url, {lookup: "1"}, {lookup: "0"}, {lookup: "x"})
                assert response.status_code == 400, (type(model_admin).__name__, lookup)


def declared_parameters(client: Client, url: str) -> set[str]:
    """The query parameters the changelist's own filters use (its sidebar links)."""
    response = client.get(url)
    assert response.status_code == 200, url
    return {name for spec in response.context["cl"].filter_specs for name in spec.expected_parameters()}


def test_declared_filters_still_work(root_client: Client, funded: Funded) -> None:
    user = funded(100)
    assert result_pks(root_client.get(changelist(Event), {"type": "DepositMade"}))
    assert result_pks(root_client.get(changelist(get_user_model()), {"is_active__exact": "1"}))
    in_group = {"groups__id__exact": user.groups.get().pk}
    assert user.pk in result_pks(root_client.get(changelist(get_user_model()), in_group))
    assert result_pks(root_client.get(changelist(Event), {"q": f"player-{user.pk}"}))


def test_every_admin_declares_its_filters_and_never_filters_searches_or_sorts_on_json() -> None:
    for model, model_admin in admin.site._registry.items():
        name = type(model_admin).__name__
        assert isinstance(model_admin, DeclaredFiltersOnly), name
        paths = [
            item if isinstance(item, str) else item[0]
            for item in model_admin.list_filter
            if isinstance(item, str | tuple | list)
        ]
        paths += [term.lstrip("=^@") for term in model_admin.search_fields]
        paths += [item for item in model_admin.list_display if isinstance(item, str)]
        for path in paths:
            field = field_at(model, path)
            assert not isinstance(field, models.JSONField), (name, path)


def field_at(model: type[models.Model], path: str) -> Any:
    field = None
    for part in path.split("__"):
        try:
            field = model._meta.get_field(part)
        except Exception:  # a method or a lookup name: not a field
            return field
        if field.related_model is not None:
            model = field.related_model
    return field


# 2. No stranded chips ------------------------------------------------------------------------------


def user_url(user: AbstractUser, action: str) -> str:
    return reverse(f"admin:auth_user_{action}", args=[user.pk])


def messages_of(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def run_action(client: Client, action: str, users: list[AbstractUser], **extra: str) -> Any:
    """Post a changelist action on `users`, following the redirect back to the list."""
    body = {"action": action, "_selected_action": [user.pk for user in users], **extra}
    return client.post(changelist(get_user_model()), body, follow=True)


def refused_delete(client: Client, user: AbstractUser) -> str:
    """Try every admin way to delete `user`; each is refused with a message. Returns the message."""
    before = Event.objects.count()
    shown = client.get(user_url(user, "delete"), follow=True)
    [message] = messages_of(shown)
    assert shown.redirect_chain[-1][0] == user_url(user, "change")
    posted = client.post(user_url(user, "delete"), {"post": "yes"}, follow=True)
    assert messages_of(posted) == [message]
    bulk = run_action(client, "delete_selected", [user], post="yes")
    assert bulk.status_code == 200
    assert any(f"{user.username} (id {user.pk})" in text for text in messages_of(bulk))
    page = client.get(user_url(user, "change")).content.decode()
    assert user_url(user, "delete") not in page  # no Delete button either
    assert get_user_model().objects.filter(pk=user.pk, is_active=True).exists()
    assert Event.objects.count() == before
    return message


def test_a_funded_user_cannot_be_deleted_through_the_admin(root_client: Client, funded: Funded) -> None:
    user = funded(1500)
    message = refused_delete(root_client, user)
    assert f"player:{user.pk} holds 1500 chips" in message
    assert "Deactivate" in message
    assert balance(player_account(user.pk)) == 1500
    assert verify_ledger().ok


def test_chips_at_a_table_and_history_alone_also_prevent_deletion(
    root_client: Client, funded: Funded
) -> None:
    seated, other = funded(300), funded(300)
    table = service.table_open(variant="guts2", options={"ante": 10}).table_id
    service.table_command(table_id=table, command=cmd.SitDown(str(seated.pk), 300))
    service.table_command(table_id=table, command=cmd.SitDown(str(other.pk), 300))
    assert balance(player_account(seated.pk)) == 0
    assert f"{seat_account(table, seated.pk)} holds 300 chips" in refused_delete(root_client, seated)

    emptied = funded(50)
    cashier_withdraw(player_id=emptied.pk, amount=50)
    assert "history" in refused_delete(root_client, emptied)


def test_a_staff_user_recorded_as_an_actor_cannot_be_deleted(
    root_client: Client, make_staff: Any, make_player: Any
) -> None:
    cashier = make_staff("club_admin")
    cashier_deposit(player_id=make_player().pk, amount=10, meta={"actor": cashier.pk})
    assert "actor" in refused_delete(root_client, cashier)


def test_no_code_path_deletes_a_user_with_ledger_history(funded: Funded) -> None:
    user = funded(10)
    with pytest.raises(UserHasLedgerHistory, match=f"player:{user.pk} holds 10 chips"), transaction.atomic():
        user.delete()
    with pytest.raises(UserHasLedgerHistory), transaction.atomic():
        get_user_model().objects.filter(pk=user.pk).delete()
    assert get_user_model().objects.filter(pk=user.pk).exists()
    assert balance(player_account(user.pk)) == 10


def test_a_user_without_chips_or_history_may_still_be_deleted(
    root_client: Client, django_user_model: type[AbstractUser]
) -> None:
    single = django_user_model.objects.create_user(username="typo-single", password="pw-not-used")
    response = root_client.post(user_url(single, "delete"), {"post": "yes"})
    assert response.status_code == 302
    assert not django_user_model.objects.filter(pk=single.pk).exists()

    bulk = [django_user_model.objects.create_user(username=f"typo{n}", password="pw") for n in range(2)]
    response = run_action(root_client, "delete_selected", bulk, post="yes")
    assert any("Successfully deleted 2" in text for text in messages_of(response))
    assert not django_user_model.objects.filter(pk__in=[user.pk for user in bulk]).exists()


def test_one_funded_user_in_a_bulk_delete_stops_the_whole_delete(
    root_client: Client, funded: Funded, django_user_model: type[AbstractUser]
) -> None:
    spare = django_user_model.objects.create_user(username="spare", password="pw-not-used")
    user = funded(5)
    response = run_action(root_client, "delete_selected", [spare, user], post="yes")
    assert any("cannot be deleted" in text for text in messages_of(response))
    assert django_user_model.objects.filter(pk__in=[spare.pk, user.pk]).count() == 2


def test_deactivation_appends_an_event_and_stops_the_users_tokens(
    root_client: Client, root: AbstractUser, funded: Funded
) -> None:
    user = funded(700)
    api = client_for(user)
    assert api.get("/api/v1/me").status_code == 200
    response = run_action(root_client, "deactivate_users", [user])
    assert any("Deactivated 1" in text for text in messages_of(response))

    last = read_stream(f"player-{user.pk}")[-1]
    assert last.type == PLAYER_DEACTIVATED
    assert last.data == {"player_id": user.pk, "username": user.username}
    assert last.meta["actor"] == root.pk
    user.refresh_from_db()
    assert not user.is_active
    assert api.get("/api/v1/me").status_code == 401
    assert balance(player_account(user.pk)) == 700  # his chips stay his, for a withdrawal
    assert verify_ledger().ok

    again = Event.objects.count()
    run_action(root_client, "deactivate_users", [user])
    assert Event.objects.count() == again  # already inactive: nothing to record

    run_action(root_client, "reactivate_users", [user])
    assert read_stream(f"player-{user.pk}")[-1].type == PLAYER_REACTIVATED
    assert api.get("/api/v1/me").status_code == 200
    assert verify_ledger().ok


def test_the_change_form_cannot_flip_is_active_without_an_event(root_client: Client, funded: Funded) -> None:
    user = funded(1)
    page = root_client.get(user_url(user, "change")).content.decode()
    assert 'name="is_active"' not in page
