"""The vectorised engine against straightforward scalar references, on generated sessions.

The fast paths of validation, scoring and standings work on integer codes and
per-distinct-value tables; these tests recompute the same figures the slow,
obvious way — row by row, with :class:`fractions.Fraction` and the scalar rules
of :mod:`pipelines.laws` — and require exact agreement:

* validation: the same rows accepted and rejected (with the same reasons) as
  checking every row with :func:`~pipelines.scoring.checks.apply_checks`; kind,
  artificial codes, stated score and Law 77 score as the scalar
  :func:`~pipelines.laws.contract.ns_score` gives them; a repeated pair on a
  board rejected after its first result;
* scoring: every result's exact matchpoints from :func:`matchpoints`,
  :func:`neuberg`, :func:`linear` and :func:`artificial`;
* standings: every contestant's exact total, top, place and tie.

Each test runs a few seeds of a 20,000-result frame (a few seconds in all).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from pipelines import profiles
from pipelines.bench import canonical
from pipelines.laws.contract import ns_score, parse_contract
from pipelines.laws.exact import dense_ids, group_ids, sum_fractions
from pipelines.laws.matchpoints import artificial, linear, matchpoints, neuberg
from pipelines.scoring.checks import apply_checks
from pipelines.scoring.events import DEFAULTS, EVENTS_SCHEMA, with_defaults
from pipelines.scoring.score import score_results
from pipelines.scoring.standings import session_standings
from pipelines.scoring.validate import _raw, result_checks, validate_results
from pipelines.synth.pairs import generate_results_frame

SEEDS = [1, 2, 3]
PROFILES = ["wbf", "ebu", "acbl", "abf", "ffb"]


def _events(raw: pl.DataFrame, seed: int) -> pl.DataFrame:
    """Events for the sessions of ``raw``: mixed profiles and movements (a generated Howell
    read as a Mitchell makes each pair id two contestants), some expecting more results."""
    keys = (
        raw.select("event_id", pl.col("session").cast(pl.Int32, strict=False))
        .drop_nulls()
        .unique()
        .sort("event_id", "session")
    )
    rng = np.random.default_rng(seed)
    k = keys.height
    expected = np.where(rng.random(k) < 0.15, rng.integers(9, 15, k), -1)
    ev = keys.with_columns(
        pl.Series("profile", np.array(PROFILES)[rng.integers(0, len(PROFILES), k)]),
        pl.Series("movement", np.where(rng.random(k) < 0.3, "mitchell", "howell")),
        pl.Series("expected_results", expected).cast(pl.Int32),
    ).with_columns(
        pl.col("profile", "movement").first().over("event_id"),
        pl.when(pl.col("expected_results") > 0).then(pl.col("expected_results")),
    )
    rows = {c: ev[c] if c in ev.columns else [None] * k for c in EVENTS_SCHEMA}
    return with_defaults(pl.DataFrame(rows, schema=EVENTS_SCHEMA))


def _irregular(raw: pl.DataFrame, seed: int) -> pl.DataFrame:
    """Drop some results and mark some not played, so boards are short and factored."""
    rng = np.random.default_rng(seed)
    keep = rng.random(raw.height) > 0.03
    np_rows = pl.Series(rng.random(raw.height) < 0.01)
    return raw.with_columns(
        pl.when(np_rows).then(pl.lit("NP")).otherwise(pl.col("score")).alias("score"),
        *(
            pl.when(np_rows).then(None).otherwise(pl.col(c)).alias(c)
            for c in ("contract", "declarer", "tricks")
        ),
    ).filter(pl.Series(keep))


@pytest.fixture(scope="module", params=SEEDS)
def case(request: pytest.FixtureRequest) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    seed = request.param
    raw = _irregular(canonical(generate_results_frame(20_000, seed)), seed)
    events = _events(raw, seed)
    validated, rejected = validate_results(raw, events)
    assert rejected.height == 0
    return raw, events, score_results(validated)


# --------------------------------------------------------------------------- validation


_MESS = {
    "board": ["0", "x", "-1", "", None, "017"],
    "session": ["0", "abc", None, "01"],
    "round": ["1", "0", "r", ""],
    "table": ["2", "-3", ""],
    "contract": ["4s", " PASS", "pass", "8NT", "3NTXXX", "", None, "Pass", "4SX", "7NTXX"],
    "declarer": ["n", "X", "", None, "E"],
    "tricks": ["14", "-1", "x", "", None, "013", "0"],
    "score": ["+420", "A60/40", "A+/-", "NP", "", None, "A70/30", "abc", "-", "0", "A=/="],
    "ns_pair": [None, "1", "2"],
    "ew_pair": [None, "1", "3"],
    "event_id": [None],
}


def _messy(seed: int) -> pl.DataFrame:
    """A generated frame with bad values sprinkled in and some rows repeated."""
    raw = canonical(generate_results_frame(20_000, seed))
    rng = np.random.default_rng(seed)
    cols = {c: raw[c].to_list() for c in raw.columns}
    for col, values in _MESS.items():
        for i in np.flatnonzero(rng.random(raw.height) < 0.004):
            cols[col][i] = values[rng.integers(0, len(values))]
    out = pl.DataFrame(cols, schema=raw.schema)
    again = out.filter(pl.Series(rng.random(raw.height) < 0.003)).with_columns(
        pl.lit("again.csv").alias("file")
    )
    return pl.concat([out, again])


def _reference_validation(raw: pl.DataFrame, events: pl.DataFrame):
    """Every check on every row, then types and duplicates row by row."""
    ev = events.select(
        "event_id", "session", "form", "scoring", "movement", "profile", "expected_results", "laws"
    )
    df = (
        raw.with_row_index("__order")
        .with_columns(pl.col("session").cast(pl.Int32, strict=False).alias("__session"))
        .join(
            ev,
            left_on=["event_id", "__session"],
            right_on=["event_id", "session"],
            how="left",
            maintain_order="left",
        )
        .with_columns(
            *(
                pl.col(c).fill_null(pl.lit(DEFAULTS[c]))
                for c in ("form", "scoring", "movement", "profile", "laws")
            )
        )
    )
    ok, rejected = apply_checks(df, result_checks(), _raw())
    first: dict[tuple, dict] = {}
    later, conflicting = set(), set()

    def same(a: dict, b: dict) -> bool:  # one result sent twice
        def norm(r: dict) -> tuple:
            return (
                *(None if r[c] in (None, "") else int(r[c]) for c in ("round", "table", "tricks")),
                r["ns_pair"],
                r["ew_pair"],
                (r["contract"] or "").strip().upper() or None,
                (r["declarer"] or "").strip().upper() or None,
                r["score"],
            )

        return norm(a) == norm(b)

    rows = list(ok.iter_rows(named=True))
    for r in rows:
        board = (r["event_id"], int(r["session"]), r["section"] or "", int(r["board"]))
        mitchell = r["movement"] == "mitchell"
        sides = [(r["ns_pair"], 1 if mitchell else 0), (r["ew_pair"], 2 if mitchell else 0)]
        for p, d in sides:
            f = first.setdefault((board, p, d), r)
            if f is not r:
                later.add(r["__order"])
                if not same(f, r):  # two different results: both refused
                    conflicting.update({r["__order"], f["__order"]})
    gone = later | conflicting
    accepted = [r for r in rows if r["__order"] not in gone]
    duplicates = [r for r in rows if r["__order"] in gone]
    return accepted, rejected, duplicates


def _kind(score: str | None) -> tuple[str, str | None, str | None, int | None]:
    import re

    s = score or ""
    m = re.fullmatch(r"A(60|50|40|\+|=|-)/(60|50|40|\+|=|-)", s)
    if m:
        return "artificial", m[1], m[2], None
    if s == "NP":
        return "not_played", None, None, None
    return "played", None, None, int(s) if re.fullmatch(r"[+-]?\d+", s) else None


@pytest.mark.parametrize("seed", SEEDS)
def test_validation_matches_row_by_row_checks(seed: int) -> None:
    raw = _messy(seed)
    events = _events(raw, seed)
    validated, rejected = validate_results(raw, events)
    accepted, check_rejected, duplicates = _reference_validation(raw, events)
    n_checks = check_rejected.height
    assert n_checks > 100 and len(duplicates) > 10  # the frame is messy enough to test
    assert rejected.head(n_checks).equals(check_rejected)
    dup_rows = rejected.slice(n_checks)
    assert sorted(dup_rows["location"].to_list()) == sorted(r["location"] for r in duplicates)
    assert dup_rows.height == len(duplicates)
    assert dup_rows["field"].is_in(["board", "result"]).all()
    assert validated.height == len(accepted)
    for got, r in zip(validated.iter_rows(named=True), accepted, strict=True):
        kind, ns_art, ew_art, stated = _kind(r["score"])
        assert (got["kind"], got["ns_art"], got["ew_art"], got["stated_score"]) == (
            kind,
            ns_art,
            ew_art,
            stated,
        )
        contract = (r["contract"] or "").strip().upper()
        if kind != "played":
            computed = None
        elif contract == "PASS":
            computed = 0
            assert got["contract"] == "PASS"
        else:
            computed = ns_score(
                parse_contract(contract), r["declarer"], int(r["tricks"]), int(r["board"])
            )
        assert got["computed_score"] == computed, r
        agrees = None if stated is None or computed is None else stated == computed
        assert got["score_agrees"] == agrees
        assert got["movement"] == r["movement"] and got["profile"] == r["profile"]
        assert got["expected_results"] == r["expected_results"]


# --------------------------------------------------------------------------- scoring


def test_scoring_matches_scalar_rules(case) -> None:
    _, _, s = case
    # Every kind of board is there: full, Neuberg- and linearly-factored, NP, artificial.
    assert set(s["factoring"]) == {"none", "neuberg", "linear"}
    assert set(s["kind"]) == {"played", "artificial", "not_played"}
    boards: dict[tuple, list[dict]] = defaultdict(list)
    for r in s.iter_rows(named=True):
        boards[(r["event_id"], r["session"], r["section"], r["board"])].append(r)
    most: dict[tuple, int] = defaultdict(int)
    for (e, ss, sec, _), recs in boards.items():
        most[(e, ss, sec)] = max(most[(e, ss, sec)], len(recs))
    for key, recs in boards.items():
        prof = profiles.load(recs[0]["profile"])
        unit = Fraction(1) if prof.scale == "2/1" else Fraction(1, 2)
        big_n = max(most[key[:3]], recs[0]["expected_results"] or 0)
        played = [r for r in recs if r["kind"] == "played"]
        n = len(played)
        has_art = any(r["kind"] == "artificial" for r in recs)
        method = (
            "none" if n >= big_n else prof.factoring_adjusted if has_art else prof.factoring_missing
        )
        raw_mp = matchpoints([r["computed_score"] for r in played])
        pct = {"+": prof.average_plus, "=": prof.average, "-": prof.average_minus}
        for r in recs:
            assert (r["n_results"], r["expected"], r["factoring"]) == (n, big_n, method)
            assert r["top"] == float(2 * (big_n - 1) * unit)
            if r["kind"] == "not_played":
                assert r["ns_mp_num"] is None and r["mp_den"] is None
                continue
            if r["kind"] == "artificial":
                want_ns = artificial(pct.get(r["ns_art"]) or int(r["ns_art"]), big_n, prof.scale)
                want_ew = artificial(pct.get(r["ew_art"]) or int(r["ew_art"]), big_n, prof.scale)
            else:
                m = raw_mp[played.index(r)]
                f = {"none": m, "neuberg": neuberg(m, n, big_n), "linear": linear(m, n, big_n)}
                want_ns = f[method] * unit
                want_ew = 2 * (big_n - 1) * unit - want_ns
            assert Fraction(r["ns_mp_num"], r["mp_den"]) == want_ns, r
            assert Fraction(r["ew_mp_num"], r["mp_den"]) == want_ew, r


# --------------------------------------------------------------------------- standings


def test_standings_match_exact_sums_and_places(case) -> None:
    _, _, s = case
    got = session_standings(s)
    totals: dict[tuple, Fraction] = defaultdict(Fraction)
    tops: dict[tuple, Fraction] = defaultdict(Fraction)
    boards: dict[tuple, int] = defaultdict(int)
    for r in s.filter(pl.col("kind") != "not_played").iter_rows(named=True):
        prof = profiles.load(r["profile"])
        mitchell = r["movement"] == "mitchell"
        for side, pair in (("ns", r["ns_pair"]), ("ew", r["ew_pair"])):
            direction = side.upper() if mitchell else None
            key = (r["event_id"], r["session"], r["section"], direction, pair)
            if prof.count == "displayed":
                scale = 10**prof.mp_decimals
                totals[key] += Fraction(round(r[f"{side}_mp"] * scale), scale)
            else:
                totals[key] += Fraction(r[f"{side}_mp_num"], r["mp_den"])
            tops[key] += Fraction(2 * (r["expected"] - 1), prof.unit_den)
            boards[key] += 1
    assert got.height == len(totals)
    pct: dict[tuple, Fraction] = {}
    rows = {}
    for r in got.iter_rows(named=True):
        key = (r["event_id"], r["session"], r["section"], r["direction"], r["contestant"])
        prof = profiles.load(r["profile"])
        score, top = totals[key], tops[key]
        if prof.sitout == "scale_to_full":
            # the boards the fullest contestant of its ranking group played
            full = max(n for k, n in boards.items() if k[:4] == key[:4])
            score, top = score * full / boards[key], top * full / boards[key]
        assert Fraction(r["score_num"], r["score_den"]) == score, key
        assert Fraction(r["top_num"], r["top_den"]) == top, key
        assert r["boards"] == boards[key]
        pct[key] = score / top
        rows[key] = r
    for key, r in rows.items():
        if profiles.load(r["profile"]).tiebreak != "none":
            continue
        field = [p for k, p in pct.items() if k[:4] == key[:4]]
        assert r["rank"] == 1 + sum(1 for p in field if p > pct[key])
        assert r["tied"] == (sum(1 for p in field if p == pct[key]) > 1)


# --------------------------------------------------------------------------- exact helpers


@pytest.mark.parametrize("seed", SEEDS)
def test_integer_ids_and_exact_sums(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 5000
    df = pl.DataFrame(
        {
            "a": rng.choice(["x", "y", None, "zz"], n),
            "b": pl.Series(rng.integers(-3, 4, n)).set(pl.Series(rng.random(n) < 0.1), None),
            "c": rng.integers(0, 10**12, n) * (rng.random(n) < 0.01),
        }
    )
    ids, k = group_ids(df, ["a", "b", "c"])
    want = {}
    for i, row in enumerate(df.iter_rows()):
        want.setdefault(row, ids[i])
        assert ids[i] == want[row]
    assert len(want) == k and sorted(set(ids.tolist())) == list(range(k))
    keys = rng.integers(0, 10**15, n)
    dense, m = dense_ids(keys)
    assert m == len(set(keys.tolist()))
    assert (np.argsort(keys, kind="stable") == np.argsort(dense, kind="stable")).all()

    groups = rng.integers(0, 7, 50)
    parts = []
    for _ in range(2):
        cid = rng.integers(0, 50, n)
        num = rng.integers(-(10**6), 10**6, n)
        den = rng.choice([0, 1, 2, 3, 7, 10, 11, 100, 840], n)
        parts.append((cid, num, den))
    num, den = sum_fractions(parts, 50, groups)
    expect = defaultdict(Fraction)
    for cid, nums, dens in parts:
        for c, a, b in zip(cid.tolist(), nums.tolist(), dens.tolist(), strict=True):
            if b:
                expect[c] += Fraction(a, b)
    for c in range(50):
        assert Fraction(int(num[c]), int(den[c])) == expect[c]
        assert den[c] > 0
