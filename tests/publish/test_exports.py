"""USEBIO and PBN exports round-trip through Traveller's own readers: the figures written are
read back exactly, and scoring the re-imported files gives the same matchpoints, totals,
percentages and places — on the generated sample and on the real files of ../shared."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.formats.pbn import read_pbn
from pipelines.formats.usebio import read_usebio
from pipelines.publish import write_events_csv
from pipelines.publish.pbn_writer import write_pbn
from pipelines.publish.usebio_writer import write_usebio
from tests.conftest import REALDATA, shared_file
from tests.publish.conftest import Sample
from tests.publish.roundtrip import as_published, score_inbox
from tests.realdata.one_winner import build

LINE = ["event_id", "session", "section", "board", "ns_pair", "ew_pair"]
#: The points a line carries: matchpoints, or IMPs in Butler and cross-IMP pairs.
POINTS = [
    pl.when(pl.col("scoring") == "matchpoints")
    .then(pl.col(f"{s}_mp_display"))
    .otherwise(pl.col(f"{s}_imps_display"))
    .alias(f"{s}_points")
    for s in ("ns", "ew")
]
PLACE = ["event_id", "session", "section", "contestant", "direction"]


def q(sample: Sample, sql: str) -> pl.DataFrame:
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.sql(sql).pl()


def _keys(df: pl.DataFrame, cols: list[str]) -> pl.DataFrame:
    return df.with_columns(
        pl.col("session").cast(pl.Int32),
        pl.col("section").cast(pl.Utf8).fill_null(""),
        *([pl.col("board").cast(pl.Int32)] if "board" in cols else []),
        *([pl.col("direction").fill_null("")] if "direction" in cols else []),
    )


def reimport(files: list[Path], events_csv: Path, inbox: Path):
    """An inbox of the exported files and the exported events.csv, scored by the engine."""
    inbox.mkdir(parents=True)
    for f in [*files, events_csv]:
        shutil.copy(f, inbox / f.name)
    return score_inbox(inbox)


def compare(ours_lines, ours_st, again, sessions: pl.DataFrame | None = None) -> None:
    """Re-scored lines and standings equal ours (on ``sessions`` when given)."""
    assert again.rejected.height == 0, again.rejected.select("location", "field", "reason")
    assert again.validated["score_agrees"].fill_null(True).all()
    cols = ["ns_mp_display", "ew_mp_display", "kind"]
    cols += [c for c in ("ns_imps_display", "ew_imps_display") if c in ours_lines.columns]
    a = _keys(ours_lines, LINE).select(*LINE, *cols)
    b = _keys(again.scored, LINE).select(*LINE, *cols)
    if sessions is not None:
        a, b = (x.join(sessions, on=["event_id", "session"]) for x in (a, b))
    joined = a.join(b, on=LINE, how="full", suffix="_again", coalesce=True)
    assert joined.height == a.height == b.height
    for c in cols:
        off = joined.filter(pl.col(c).ne_missing(pl.col(f"{c}_again")))
        assert off.height == 0, off.select(*LINE, c, f"{c}_again")
    scols = ["score_display", "percentage_display", "rank", "tied"]
    sa = _keys(ours_st, PLACE).select(*PLACE, *scols)
    sb = _keys(again.standings, PLACE).select(*PLACE, *scols)
    if sessions is not None:
        sa, sb = (x.join(sessions, on=["event_id", "session"]) for x in (sa, sb))
    sj = sa.join(sb, on=PLACE, how="full", suffix="_again", coalesce=True)
    assert sj.height == sa.height == sb.height and sa.height > 0
    for c in scols:
        off = sj.filter(pl.col(c).ne_missing(pl.col(f"{c}_again")))
        assert off.height == 0, off.select(*PLACE, c, f"{c}_again")


# ------------------------------------------------------------------ the published sample


def _clean_sessions(sample: Sample) -> pl.DataFrame:
    """Sessions whose figures a file can carry whole: no split or weighted score, no fouled
    board (Law 87 versions), no penalty (Laws 90, 91) — none has a notation in USEBIO or PBN."""
    return q(
        sample,
        f"""SELECT DISTINCT event_id, session FROM ({EXPORTED})
           EXCEPT SELECT event_id, session FROM scored_results
                  WHERE kind = 'adjusted' OR board_version <> 'A'
           EXCEPT SELECT event_id, session FROM rulings
                  WHERE kind IN ('procedural_penalty', 'disciplinary_penalty')""",
    )


#: The event sessions USEBIO and PBN carry in this version: pairs (matchpoints, Butler,
#: cross-IMPs).
EXPORTED = """SELECT event_id, session FROM events
              WHERE form = 'pairs' AND scoring IN ('matchpoints', 'butler', 'cross_imps')"""


def exported_lines(sample: Sample) -> pl.DataFrame:
    return q(sample, f"SELECT * FROM scored_results JOIN ({EXPORTED}) USING (event_id, session)")


def exported_standings(sample: Sample) -> pl.DataFrame:
    return q(
        sample,
        f"SELECT * FROM standings JOIN ({EXPORTED}) USING (event_id, session) "
        "WHERE scope = 'session' AND status <> 'superseded'",
    )


def test_usebio_figures_read_back_exactly(sample: Sample):
    files = sorted((sample.exports / "usebio").glob("*.xml"))
    assert len(files) == q(sample, f"SELECT count(DISTINCT event_id) n FROM ({EXPORTED})")["n"][0]
    lines = exported_lines(sample)
    st = exported_standings(sample)
    read = [read_usebio(f, f.name) for f in files]
    assert all(r.rejected.height == 0 for r in read)
    results = pl.concat([r.results for r in read])
    assert results.height == lines.height
    got = _keys(results, LINE).select(
        *LINE,
        pl.col("source_ns_mp").cast(pl.Float64),
        pl.col("source_ew_mp").cast(pl.Float64),
    )
    both = _keys(lines, LINE).join(got, on=LINE).with_columns(POINTS)
    assert both.height == lines.height
    assert (both["ns_points"] == both["source_ns_mp"]).all()
    assert (both["ew_points"] == both["source_ew_mp"]).all()
    official = pl.concat([r.source_standings for r in read]).filter(
        pl.col("location").str.contains("SESSION")
    )
    off = _keys(official, PLACE).join(_keys(st, PLACE), on=PLACE)
    assert off.height == st.height
    assert (off["total"].cast(pl.Float64) == off["score_display"]).all()
    assert off["percentage"].cast(pl.Float64).eq_missing(off["percentage_display"]).all()
    places = off["place"].str.strip_suffix("=").cast(pl.Int32)
    assert (places == off["rank"]).all()
    assert (off["place"].str.ends_with("=") == off["tied"]).all()
    names = pl.concat([r.contestants for r in read]).unique(["event_id", "contestant", "direction"])
    assert names.filter(pl.col("names").is_null()).height == 0
    assert names["player_ids"].is_null().all()


def test_pbn_figures_read_back_exactly(sample: Sample):
    files = sorted((sample.exports / "pbn").glob("*.pbn"))
    assert len(files) == q(sample, f"SELECT count(*) n FROM ({EXPORTED})")["n"][0]
    lines = exported_lines(sample)
    st = exported_standings(sample)
    read = [read_pbn(f, f.name) for f in files]
    assert all(r.rejected.height == 0 for r in read)
    got = _keys(pl.concat([r.results for r in read]), LINE).select(
        *LINE, pl.col("source_ns_mp").cast(pl.Float64), pl.col("source_ew_mp").cast(pl.Float64)
    )
    both = _keys(lines, LINE).join(got, on=LINE).with_columns(POINTS)
    assert both.height == lines.height == got.height
    assert (both["ns_points"] == both["source_ns_mp"]).all()
    assert (both["ew_points"] == both["source_ew_mp"]).all()
    off = _keys(pl.concat([r.source_standings for r in read]), PLACE).join(
        _keys(st, PLACE), on=PLACE
    )
    assert off.height == st.height
    assert (off["total"].cast(pl.Float64) == off["score_display"]).all()
    assert off["percentage"].cast(pl.Float64).eq_missing(off["percentage_display"]).all()
    events = pl.concat([r.events for r in read]).select("event_id", "session", "movement")
    ours = q(
        sample,
        f"SELECT event_id, session, movement FROM events JOIN ({EXPORTED}) "
        "USING (event_id, session)",
    )
    assert "mitchell" in ours["movement"].to_list()  # two fields: each ranked from 1
    events = events.with_columns(pl.col("session").cast(pl.Int32))
    both = events.join(ours, on=["event_id", "session"])
    assert both.height == ours.height and (both["movement"] == both["movement_right"]).all()


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_rescoring_the_exports_gives_the_same_figures(sample: Sample, tmp_path: Path, fmt: str):
    files = sorted((sample.exports / fmt).glob("*.xml" if fmt == "usebio" else "*.pbn"))
    again = reimport(files, sample.exports / "events.csv", tmp_path / "inbox")
    clean = _clean_sessions(sample)
    assert clean.height >= 1
    lines = exported_lines(sample)
    st = exported_standings(sample)
    compare(lines, st, again, clean)
    # lines of the other sessions: every regular board gives the same matchpoints again
    irregular = q(
        sample,
        "SELECT DISTINCT event_id, session, section, board FROM scored_results "
        "WHERE kind = 'adjusted' OR board_version <> 'A'",
    )
    keys = ["event_id", "session", "section", "board"]
    a = _keys(lines, LINE).join(_keys(irregular, keys), on=keys, how="anti")
    b = _keys(again.scored, LINE).join(a.select(LINE), on=LINE)
    assert a.height == b.height > 0
    joined = a.join(b, on=LINE, suffix="_again")
    assert (joined["ns_mp_display"] == joined["ns_mp_display_again"]).all()


def test_exports_read_back_as_a_clubs_files_are_reconciled_without_unknown(
    sample: Sample, tmp_path: Path
):
    """The README's example: the USEBIO exports and events.csv read back as a club's files.
    Every pair listed again by a second session is the same pair (nothing rejected), and every
    official figure Traveller does not reproduce has a specific reason (no ``unknown``)."""
    from pipelines.scoring.reconcile import reconcile

    files = sorted((sample.exports / "usebio").glob("*.xml"))
    again = reimport(files, sample.exports / "events.csv", tmp_path / "inbox")
    snap = again.snap  # type: ignore[attr-defined]
    # the events.csv rows of the team and individual events, which have no USEBIO export,
    # name no event of this inbox: rejected, never read as new events; nothing else is
    exported = {f.stem for f in files}
    rows = pl.read_csv(sample.exports / "events.csv", infer_schema=False)
    absent = sorted(set(rows.filter(~pl.col("event_id").is_in(sorted(exported)))["event_id"]))
    assert absent and all(not e.startswith("CLUB") for e in absent)
    rejected = snap.rejected.filter(
        (pl.col("file") == "events.csv")
        & (pl.col("field") == "event_id")
        & pl.col("reason").str.contains("known events: ")
    )
    assert sorted(set(rejected["raw"])) == absent
    assert snap.rejected.height == rejected.height, snap.rejected.select("location", "reason")
    diffs, per_file = reconcile(again.scored, again.standings, snap.source_standings)
    assert per_file["compared"].sum() > 1000
    assert diffs.filter(pl.col("code") == "unknown").height == 0, diffs.filter(
        pl.col("code") == "unknown"
    )


# ------------------------------------------------------------------------- real files


@pytest.mark.parametrize(
    "name",
    [
        "compscore_usebio_mp_howell_12p.xml",
        "compscore_usebio_mp_mitchell_42p_adjusted.xml",
        "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn",
        "compscore_usebio_butler_mitchell_14p.xml",
        "compscore_usebio_cross_imp_howell_9p.xml",
    ],
)
def test_real_files_round_trip(tmp_path: Path, name: str):
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(shared_file(REALDATA / name), src / name)
    ours = score_inbox(src)
    assert ours.rejected.height == 0
    sessions, standings, results = as_published(ours)
    events_csv = write_events_csv(sessions, tmp_path / "events.csv")
    for fmt, writer in (("usebio", write_usebio), ("pbn", write_pbn)):
        files = writer(sessions, standings, results, tmp_path / fmt)
        assert len(files) == 1
        text = files[0].read_text(encoding="utf-8")
        ids = ours.snap.contestants["player_ids"].drop_nulls()  # type: ignore[attr-defined]
        # membership numbers (a one-digit placeholder such as "0" says nothing)
        assert not any(i in text for v in ids for i in v.split(";") if len(i) >= 4)
        again = reimport(files, events_csv, tmp_path / f"inbox-{fmt}")
        compare(ours.scored, ours.standings, again)


def test_the_exported_events_csv_lists_the_exported_events_only(sample: Sample, tmp_path: Path):
    """exports/events.csv names the events of the exported files: an event no file exports
    (an individual) is not listed — read again with the PBN exports, its row named no event
    and was rejected (the run exited 3 where it should exit 0)."""
    from pipelines.publish import publish

    out = tmp_path / "out"
    publish(sample.warehouse, out, dashboard=False)
    exports = out / "exports"
    rows = pl.read_csv(exports / "events.csv", infer_schema=False)
    individual = q(sample, "SELECT DISTINCT event_id FROM events WHERE form = 'individual'")
    assert individual.height and not set(individual["event_id"]) & set(rows["event_id"])
    files = sorted([*(exports / "pbn").glob("*.pbn"), *(exports / "pbn-teams").glob("*.pbn")])
    names = {f.name for f in files}
    assert all(any(n.startswith(f"{e}-s") for n in names) for e in set(rows["event_id"]))
    again = reimport(files, exports / "events.csv", tmp_path / "inbox")
    assert again.snap.rejected.filter(pl.col("file") == "events.csv").height == 0  # type: ignore[attr-defined]


def test_one_winner_mitchell_round_trip(tmp_path: Path):
    """A one-winner Mitchell (pairs 1NS ... 21EW, arrow-switched rounds: read as a Howell of
    those pairs) is exported as one field under the program's numbers and read back alike."""
    path, _ = build(tmp_path / "src")
    ours = score_inbox(path.parent)
    assert ours.rejected.height == 0
    sessions, standings, results = as_published(ours)
    events_csv = write_events_csv(sessions, tmp_path / "events.csv")
    for fmt, writer in (("usebio", write_usebio), ("pbn", write_pbn)):
        files = writer(sessions, standings, results, tmp_path / fmt)
        text = files[0].read_text(encoding="utf-8")
        assert "14EW" in text
        if fmt == "usebio":
            assert "<WINNER_TYPE>1</WINNER_TYPE>" in text
        again = reimport(files, events_csv, tmp_path / f"inbox-{fmt}")
        assert set(again.scored["movement"]) == {"howell"}
        assert "14EW" in set(again.standings["contestant"])
        compare(ours.scored, ours.standings, again)


def test_the_pbn_writers_white_space_is_pythons() -> None:
    """The white space the PBN writer's column functions collapse and quote is every code
    point :meth:`str.isspace` (so :meth:`str.split`) takes for white space, no other."""
    from pipelines.publish.pbn_writer import SPACES

    assert list(SPACES) == [c for c in range(0x110000) if chr(c).isspace()]
