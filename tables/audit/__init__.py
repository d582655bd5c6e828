"""Audit and hand replay: event feeds, live stream, replay, fairness proof, exports."""
