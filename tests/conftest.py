"""Shared fixtures: paths to the project's shared reference material."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REALDATA = SHARED / "realdata"
VECTORS = SHARED / "domain" / "vectors.json"


def shared_file(path: Path) -> Path:
    """``path`` if the shared material is present, else skip the test with a clear message."""
    if not path.exists():
        pytest.skip(f"shared reference material {path} is absent (expected beside the project)")
    return path
