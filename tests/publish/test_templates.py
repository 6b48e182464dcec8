"""The site's Jinja environment reads ``row.field`` of a plain dict as its key at once: the
answer Jinja's own lookup gives (an attribute first, then the item), so every page is the
same, whatever the row holds."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from jinja2 import Environment, StrictUndefined, UndefinedError

from pipelines.publish.common import environment

TEMPLATE = (
    "{{ r.name }}|{{ r.note }}|{{ r.items is callable }}|{{ r.get('name') }}|"
    "{% for k, v in r.items() %}{{ k }}={{ v }};{% endfor %}|{{ o.name }}|{{ n.x }}"
)


@pytest.mark.parametrize(
    "row",
    [
        {"name": "<Smith & Jones>", "note": None},
        # a field named as a dict method: Jinja gives the method, not the field
        {"name": "A", "note": "", "items": "a field", "get": "another"},
    ],
)
def test_a_dict_row_renders_as_with_jinjas_own_lookup(row):
    ours = environment().from_string(TEMPLATE)
    jinja = Environment(autoescape=True, undefined=StrictUndefined).from_string(TEMPLATE)
    ctx = {"r": row, "o": OrderedDict(name="ordered"), "n": {"x": {"y": 1}}}
    assert ours.render(**ctx) == jinja.render(**ctx)


def test_a_field_a_row_lacks_is_an_error():
    with pytest.raises(UndefinedError):
        environment().from_string("{{ r.missing }}").render(r={"name": "A"})
