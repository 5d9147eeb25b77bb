"""Shared paths for the Python binding's tests."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
"""The repository root."""
VECTORS = ROOT / "tests" / "vectors"
"""The cross-language vectors the Rust side writes."""
