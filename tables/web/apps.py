from django.apps import AppConfig


class WebConfig(AppConfig):
    """The pages for people; an app of its own so that its templates and static files are found."""

    name = "tables.web"
    label = "web"
