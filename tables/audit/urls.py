"""Audit API routes (mounted under /api/v1/)."""
urlpatterns: list = []
