"""The order the suite runs in: a plugin (``-p tests.ordering`` in ``pyproject.toml``), so
that it orders every test collected, the doctests of ``pipelines/laws`` included (a hook in
``tests/conftest.py`` would see only what is collected under ``tests/``)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules holding a test marked ``slow`` run first, each module's tests together
    and in their order (a module's fixtures are made once): pytest-xdist hands the tests out
    in this order, so the long ones start while the short ones are left to fill the workers'
    ends, and no worker begins a minute-long test when the other is almost done."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)
