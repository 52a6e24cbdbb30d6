"""Benchmarks and harnesses that print figures (recorded in docs/benchmarks.md)."""
