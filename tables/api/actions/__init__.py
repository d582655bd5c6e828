"""The step kinds' commands at the HTTP edge, one module per action (DESIGN §2.2): its view and
body, its route and the schema of the legal action that offers it (`views.ActionApi`). Every
module of this package is found here, so adding an interactive kind's edge is adding its module:
tables/urls.py routes `ACTION_VIEWS`, each view's legal action joins the union's members
(tables.schema.actions.LEGAL_ACTIONS) and the keys its kind adds to the deal view join TableDeal
(tables.schema.deal_view)."""

from __future__ import annotations

import importlib
import pkgutil

from tables.api.views import ActionApi
from tables.schema.actions import legal_action_add
from tables.schema.deal_view import deal_view_add


def _discovered() -> tuple[type[ActionApi], ...]:
    views: list[type[ActionApi]] = []
    for name in sorted(info.name for info in pkgutil.iter_modules(__path__) if not info.ispkg):
        module = importlib.import_module(f"{__name__}.{name}")
        views += [
            view
            for view in vars(module).values()
            if isinstance(view, type) and issubclass(view, ActionApi) and view.__module__ == module.__name__
        ]
    return tuple(views)


ACTION_VIEWS = _discovered()
for _view in ACTION_VIEWS:
    legal_action_add(_view.LegalActionSerializer)
    for _key, _field in _view.deal_view.items():
        deal_view_add(_key, _field)
