"""Fixtures of the analysis tests: the real analysis worker (tests/analysis/workers.py)."""

from tests.analysis.workers import analysis_worker

__all__ = ["analysis_worker"]
