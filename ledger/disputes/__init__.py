"""Disputes as ledger events: a stream per dispute, holds as pending transfers, adjudication that
corrects with new transfers (docs/disputes.md)."""
