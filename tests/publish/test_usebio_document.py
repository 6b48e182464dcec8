"""USEBIO files are written as ElementTree writes them: ``ET.indent`` with one space, then
``ET.tostring`` in UTF-8 with the XML declaration (and a final newline). The oracles'
serializer (:func:`tests.publish.export_oracles.document`, which the column-wise writer is
checked against) gives those bytes for random trees of the shapes the writer builds; every
file of the sample's exports, read back, is written again byte for byte by both."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.publish.conftest import Sample
from tests.publish.export_oracles import document

#: XML 1.0 text: no control characters but TAB, LF and CR (the writer removes the others);
#: the characters ElementTree escapes, non-ASCII letters and white space included.
_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from("&<>\"'\t\n\r -=/"),
        st.characters(min_codepoint=0x20, max_codepoint=0x2FF),
        st.sampled_from("éßЖ€—漢"),
    ),
    max_size=12,
)
_TAG = st.sampled_from(["USEBIO", "EVENT", "BOARD", "TRAVELLER_LINE", "SCORE", "PAIR", "X_1"])


@st.composite
def trees(draw, depth: int = 0) -> ET.Element:
    """An element with attributes and either text or children (elements and comments)."""
    el = ET.Element(draw(_TAG), {k: draw(_TEXT) for k in draw(st.sets(_TAG, max_size=2))})
    if depth < 3 and draw(st.booleans()):
        for _ in range(draw(st.integers(1, 4))):
            if draw(st.integers(0, 5)) == 0:
                note = draw(_TEXT).replace("-", "=")
                el.append(ET.Comment(f" {note} "))
            else:
                el.append(draw(trees(depth + 1)))
    else:
        el.text = draw(st.one_of(st.none(), st.just(""), _TEXT))
    return el


def _element_tree(root: ET.Element) -> bytes:
    tree = copy.deepcopy(root)
    ET.indent(tree, space=" ")
    return ET.tostring(tree, encoding="utf-8", xml_declaration=True) + b"\n"


@settings(max_examples=300, deadline=None)
@given(trees())
def test_the_document_is_what_element_tree_writes(root: ET.Element):
    assert document(root) == _element_tree(root)


def test_every_exported_usebio_file_is_what_element_tree_writes_of_it(sample: Sample):
    """Each file of the sample's USEBIO exports, read back with its comments and without the
    indentation, is written again byte for byte by both."""
    files = sorted((sample.exports / "usebio").glob("*.xml"))
    assert files
    for path in files:
        parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
        root = ET.fromstring(path.read_bytes(), parser=parser)
        for el in root.iter():
            if len(el):
                el.text = None
            el.tail = None
        assert document(root) == _element_tree(root) == path.read_bytes(), path.name
