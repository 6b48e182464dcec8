"""Choosing a file's rules and printing a profile's conventions: the profile headers
(``programs``, ``[sources]``), :func:`pipelines.profiles.detect`, the event's ``profile`` and
``profile_source`` (events.csv over the file's program over ``--profile`` over the default),
``display.tied_place`` and the ranking page's line on the club's own figures."""

from __future__ import annotations

import tomllib

import polars as pl
import pytest
from typer.testing import CliRunner

from pipelines import profiles
from pipelines.cli import app
from pipelines.formats.model import EVENT_COLUMNS
from pipelines.profiles import PROFILE_DIR, ProfileError, detect, parse
from pipelines.publish.explain import agreement_text, place_text
from pipelines.scoring.events import resolve_events, with_defaults


def test_programs_select_their_profile():
    assert detect("Compscore3") == "abf"
    assert detect("Compscore3 (13-Mar-26 Pianola)") == "abf"
    assert detect("Magic Contest France 4.13.3.4") == "ffb"
    assert detect("magic contest") == "ffb"  # case-insensitive
    assert detect("RealBridge") is None and detect(None) is None and detect("") is None


def test_no_program_is_claimed_by_two_profiles():
    claimed = [(n, p.casefold()) for n in profiles.available() for p in profiles.load(n).programs]
    for name, prog in claimed:
        others = [m for m, q in claimed if m != name and (q in prog or prog in q)]
        assert others == [], (name, prog, others)


def test_every_section_of_every_profile_has_its_source():
    for name in profiles.available():
        p = profiles.load(name)
        keys = dict(p.sources)
        for section in ("matchpoints", "artificial", "display", "totals", "imps", "penalties"):
            assert keys[section].strip(), (name, section)
    assert "away from zero" in profiles.load("abf").source_of("imps", "datum_rounding")
    assert (
        profiles.load("abf").source_of("imps", "butler")
        == dict(profiles.load("abf").sources)["imps"]
    )


def _abf() -> dict:
    return tomllib.loads((PROFILE_DIR / "abf.toml").read_text(encoding="utf-8"))


def test_a_section_without_source_is_an_error():
    data = _abf()
    del data["sources"]["totals"]
    with pytest.raises(ProfileError, match=r"\[sources\] gives no source for \['totals'\]"):
        parse("abf", data)


def test_a_source_for_no_setting_is_an_error():
    data = _abf()
    data["sources"]["imps.datum_rounding_typo"] = "x"
    with pytest.raises(ProfileError, match=r"names no setting 'imps\.datum_rounding_typo'"):
        parse("abf", data)
    data = _abf()
    data["programs"] = "Compscore"
    with pytest.raises(ProfileError, match="'programs' must be a list"):
        parse("abf", data)


def test_an_unknown_tied_place_style_is_an_error():
    data = _abf()
    data["display"]["tied_place"] = "6 equal"
    with pytest.raises(ProfileError, match=r"display\.tied_place"):
        parse("abf", data)


def test_profiles_command_prints_programs_and_sources():
    out = CliRunner().invoke(app, ["profiles"]).output
    assert "abf" in out and "Compscore" in out and "Magic Contest" in out
    assert "imps.datum_rounding" in out and "away from zero" in out


def _event(file: str, priority: int, **fields: str) -> dict:
    row = dict.fromkeys(EVENT_COLUMNS)
    row.update(file=file, location="line 2" if priority == 0 else "EVENT", priority=priority)
    row.update(fields)
    return row


def _resolve(rows: list[dict], profile: str | None = None) -> dict[str, dict]:
    frame = pl.DataFrame(rows, schema={**{c: pl.Utf8 for c in EVENT_COLUMNS}, "priority": pl.Int64})
    ok, rejected = resolve_events(frame)
    assert rejected.height == 0, rejected
    return {r["event_id"]: r for r in with_defaults(ok, profile).to_dicts()}


def test_profile_chosen_and_why():
    header = dict(session="1", date="2026-11-02")
    got = _resolve(
        [
            _event("club.xml", 1, event_id="C1", program="Compscore3", **header),
            _event("other.xml", 1, event_id="C2", program="Compscore3", **header),
            _event("events.csv", 0, event_id="C2", session="1", profile="ebu"),
            _event("mc.pbn", 1, event_id="M", program="Magic Contest France 4.13", **header),
            _event("x.xml", 1, event_id="X", program="HomeMade 1.0", **header),
            _event("r.csv", 1, event_id="R", **header),
        ]
    )
    assert {k: v["profile"] for k, v in got.items()} == {
        "C1": "abf",  # the program
        "C2": "ebu",  # events.csv is stronger than the program
        "M": "ffb",
        "X": "wbf",  # a program no profile reproduces: the default
        "R": "wbf",
    }
    assert got["C1"]["profile_source"] == (
        "the file was written by Compscore3, which profile abf reproduces"
    )
    assert got["C2"]["profile_source"] == "events.csv names profile ebu"
    assert got["C2"]["program"] == "Compscore3"  # kept on the event
    assert "HomeMade 1.0, which no profile reproduces" in got["X"]["profile_source"]
    assert got["R"]["profile_source"].startswith("the default profile (wbf)")


def test_run_profile_option_is_weaker_than_the_program():
    header = dict(session="1", date="2026-11-02")
    got = _resolve(
        [
            _event("club.xml", 1, event_id="C1", program="Compscore3", **header),
            _event("r.csv", 1, event_id="R", **header),
        ],
        profile="acbl",
    )
    assert (got["C1"]["profile"], got["R"]["profile"]) == ("abf", "acbl")
    assert got["R"]["profile_source"].startswith("traveller run --profile acbl")
    with pytest.raises(ProfileError, match="unknown profile 'nope'"):
        _resolve([_event("r.csv", 1, event_id="R", **header)], profile="nope")


@pytest.mark.parametrize(
    ("style", "span", "shown"),
    [
        ("trailing_equals", 2, "6="),
        ("leading_equals", 2, "=6"),
        ("range", 2, "6-7"),
        ("range", 3, "6-8"),
        ("plain", 2, "6"),
    ],
)
def test_tied_place_as_the_profile_prints_it(style, span, shown):
    assert place_text(6, True, style=style, span=span) == shown
    assert place_text(6, False, style=style, span=1) == "6"
    assert place_text(6, True, "disqualified", style=style) == "disqualified"


def test_profiles_print_shared_places_their_way():
    assert {n: profiles.load(n).tied_place for n in profiles.available()} == {
        "abf": "trailing_equals",
        "acbl": "range",
        "ebu": "leading_equals",
        "ffb": "plain",
        "wbf": "trailing_equals",
    }


def test_agreement_line():
    assert agreement_text([]) is None
    assert agreement_text([{"figures": 0}], "Compscore3") == (
        "Matches the club's published results (the figures of Compscore3)."
    )
    rows = [
        {"figures": 42, "code": "totals_before_adjustment", "explanation": "totals before"},
        {"figures": 1, "code": "swapped", "explanation": "NS and EW exchanged"},
        {"figures": 46, "code": "follows_total", "explanation": "follows"},
    ]
    assert agreement_text(rows) == (
        "Differs from the club's published results on 89 figures: totals before (42); "
        "NS and EW exchanged (1); 46 follow from those."
    )
    only = [{"figures": 1, "code": "unknown", "explanation": "unexplained"}]
    assert agreement_text(only) == (
        "Differs from the club's published results on 1 figure: unexplained (1)."
    )


def test_a_reason_worded_board_by_board_is_one_part_of_the_agreement_line():
    """Lines of boards the program scored with another number of results each say their own
    counts; the ranking page counts the reason once, in its general words."""
    from pipelines.scoring.reconcile import EXPLANATIONS

    rows = [
        {"figures": 10, "code": "other_result_count", "explanation": "with 6 results, ours 5"},
        {"figures": 4, "code": "other_result_count", "explanation": "with 5 results, ours 4"},
        {
            "figures": 11,
            "code": "other_result_count",
            "explanation": EXPLANATIONS["other_result_count"],
        },
        {"figures": 22, "code": "follows_total", "explanation": "follows"},
    ]
    assert agreement_text(rows) == (
        "Differs from the club's published results on 47 figures: "
        f"{EXPLANATIONS['other_result_count']} (25); 22 follow from those."
    )


def test_an_unknown_key_or_value_names_the_file_and_the_key(tmp_path, monkeypatch):
    text = (PROFILE_DIR / "wbf.toml").read_text(encoding="utf-8")
    assert 'butler = "acbl"' in text and "[ranking]" in text
    (tmp_path / "typo.toml").write_text(text.replace("[ranking]", "[ranking]\ntiebrake = 1"))
    (tmp_path / "bad.toml").write_text(text.replace('butler = "acbl"', 'butler = "acbl5"'))
    (tmp_path / "extra.toml").write_text(text + "\n[scoring]\nform = 'pairs'\n")
    monkeypatch.setattr(profiles, "PROFILE_DIR", tmp_path)
    profiles.load.cache_clear()
    try:
        with pytest.raises(
            ProfileError, match=r"typo\.toml.*unknown key 'tiebrake' in \[ranking\]"
        ):
            profiles.load("typo")
        with pytest.raises(ProfileError, match=r"bad\.toml.*imps\.butler = 'acbl5'"):
            profiles.load("bad")
        with pytest.raises(ProfileError, match=r"extra\.toml.*unknown key 'scoring'"):
            profiles.load("extra")
    finally:
        profiles.load.cache_clear()


def test_a_value_of_the_wrong_type_is_an_error():
    data = _abf()
    data["artificial"]["average"] = "50"  # a string is not a percentage: no coercion
    with pytest.raises(ProfileError, match=r"artificial\.average = '50'"):
        parse("abf", data)
    data = _abf()
    data["boards"]["redealt_per_round"] = 1
    with pytest.raises(ProfileError, match=r"boards\.redealt_per_round"):
        parse("abf", data)


def test_a_setting_reads_by_section_or_by_key():
    p = profiles.load("abf")
    assert p.imps.butler == p.butler == "compscore"  # abf.toml [imps] butler
    assert p.with_settings(sanctioned="excluded").penalties.sanctioned == "excluded"
    with pytest.raises(ProfileError, match=r"sanctioned = 'gone'"):
        p.with_settings(sanctioned="gone")


def test_date_order_is_stated_where_the_federation_documents_it():
    orders = {n: profiles.load(n).date_order for n in profiles.available()}
    assert orders == {"abf": "dmy", "acbl": "mdy", "ebu": "dmy", "ffb": "dmy", "wbf": None}
    assert "27/07/2022" in profiles.load("abf").source_of("date_order")


def test_a_date_order_must_be_dmy_or_mdy_and_have_its_source():
    data = _abf()
    data["date_order"] = "ymd"
    with pytest.raises(ProfileError, match=r"date_order = 'ymd'"):
        parse("abf", data)
    data = _abf()
    del data["sources"]["date_order"]
    with pytest.raises(ProfileError, match=r"\[sources\] gives no source for 'date_order'"):
        parse("abf", data)
    data = _abf()
    del data["date_order"], data["sources"]["date_order"]
    assert parse("abf", data).date_order is None  # absent: not stated
