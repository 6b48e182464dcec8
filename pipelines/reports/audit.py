"""The audit report (for the laws & ethics committee) and the transparency report (public).

Both are rendered from :func:`pipelines.audit.marts.build_marts` over the chosen window of
session dates, so they agree with the warehouse marts (which are per season); made together
(:func:`write_reports`), they are rendered from one computation of those marts. Templates are
``templates/*.html.j2`` (Jinja2, autoescape on); plots are inline SVG (:mod:`.plots`); no
file or script is fetched when the report is opened.

* **audit**: one funnel plot per rate, the audit table (per director and comparison stratum:
  volume, mix of rulings, each rate with its target, 99.8 % limits, shrunken rate and flag),
  the discrepancy cases side by side, penalty and appeal statistics, the controls applied,
  and how to read a funnel plot. Directors are named: it is an internal document.
* **transparency**: rulings by law and kind, appeals by outcome, the Board-Appeal Ratio by
  month, and the funnel plots and per-director figures with directors **pseudonymised**
  ("Director A", ... in an order given by a hash of the name, not by any figure). No player
  names, pair numbers, national ID numbers or free-text notes appear in it.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from pipelines.audit.marts import (
    DIRECTOR_FIGURES,
    MEASURE_LABELS,
    MEASURES,
    AuditInputs,
    Marts,
    build_marts,
    key_figures,
    monthly_appeals,
)
from pipelines.laws.vocabulary import RULING_KINDS
from pipelines.reports.charts import Job, PanelStore, funnel_jobs, trend_job
from pipelines.reports.figures import funnel_chart, prefetch, trend_chart

_TEMPLATES = Path(__file__).resolve().parent / "templates"
#: Discrepancy cases shown in the audit report (all are in the ruling_discrepancies mart).
MAX_CASES = 60


@functools.cache
def _env() -> Environment:
    """The reports' Jinja2 environment: autoescape on for every template and string (a
    director's or a club's name such as ``<script>`` is shown, never run). Made once per
    process, its templates compiled once (not looked at again: they ship with the code)."""
    return Environment(
        loader=FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )


def _window_label(date_from: str | None, date_to: str | None, inputs: AuditInputs) -> str:
    dates = inputs.boards["session_date"].drop_nulls() if inputs.boards.height else pl.Series([])
    lo = date_from or (str(dates.min()) if len(dates) else "")
    hi = date_to or (str(dates.max()) if len(dates) else "")
    if lo and hi:
        return f"{lo} to {hi}"
    return f"from {lo}" if lo else f"up to {hi}" if hi else "no sessions"


def pseudonyms(directors: list[str]) -> dict[str, str]:
    """``Director A``, ``Director B``, ... in the order of a hash of each name (not of any
    figure, so the letter says nothing of the director's rates)."""
    order = sorted(set(directors), key=lambda d: hashlib.sha256(d.encode()).hexdigest())
    out = {}
    for i, name in enumerate(order):
        letters = ""
        k = i
        while True:
            letters = chr(ord("A") + k % 26) + letters
            k = k // 26 - 1
            if k < 0:
                break
        out[name] = f"Director {letters}"
    return out


@dataclass(frozen=True)
class Report:
    """A rendered report: its HTML and its key figures."""

    html: str
    figures: dict[str, object]


#: What the cases of each rate are, for the sentence under its funnel plot.
CASES: dict[str, str] = {
    "rulings_per_board": "boards played at the sessions he directed",
    "adjustment_rate": "judgement calls he ruled on a board",
    "procedural_penalty_rate": "rulings he gave",
    "overturn_rate": "appeals decided against his rulings",
}


def reading(measure: str) -> str:
    """The sentence under a funnel plot: what to read from it."""
    return (
        f"Read: each dot is a director, across the number of {CASES[measure]}, up his rate. "
        "A dot between the red curves differs from the target (black line) no more than "
        "chance allows for that number of cases; a red dot is flagged: outside the 99.8 % "
        "limits and rarer than 1 in 1,000 at the target."
    )


def tail_note(row: dict) -> str | None:
    """Why a rate drawn beyond its 99.8 % limit is not flagged: the exact binomial tail of
    its count at the target (``P(X >= x)`` above, ``P(X <= x)`` below) is not below 0.1 %
    (see :mod:`pipelines.audit.funnel`). ``None`` for a rate inside its limits or flagged."""
    from pipelines.audit.distributions import binom_cdf, binom_sf

    if row.get("flagged") or not row.get("n"):
        return None
    over = row.get("over_dispersed")
    lo = row["lower998_widened"] if over else row["lower998"]
    hi = row["upper998_widened"] if over else row["upper998"]
    rate, x, n, p0 = row["rate"], row["x"], row["n"], row["target"]
    if hi is not None and rate > hi:
        tail, sign = float(binom_sf(x - 1, n, p0)), "≥"
    elif lo is not None and rate < lo:
        tail, sign = float(binom_cdf(x, n, p0)), "≤"
    else:
        return None
    return (
        f"beyond the drawn limit, not flagged: {x} of {n} or {'more' if sign == '≥' else 'fewer'}"
        f" happens {tail:.1%} of the time at the target {p0:.3f}"
    )


def _measured(marts: Marts) -> list[tuple[str, pl.DataFrame]]:
    """Each rate (:data:`MEASURES`, in order) with the ``director_audit`` rows of its funnel
    plot (those with cases); empty when no director has a case of it."""
    d = marts.director_audit.filter(pl.col("n") > 0)
    return [(m, d.filter(pl.col("measure") == m)) for m in MEASURES]


def _labels(kind: str, marts: Marts) -> dict[str, str] | None:
    """The names a report shows its directors by: their own (``audit``) or pseudonyms
    (``transparency``)."""
    if kind == "audit":
        return None
    return pseudonyms(marts.director_audit["director"].to_list())


def _plots(marts: Marts, labels: dict[str, str] | None, store: PanelStore) -> list[dict]:
    out = []
    for m, rows in _measured(marts):
        if rows.height == 0:
            out.append({"measure": m, "label": MEASURE_LABELS[m], "svg": None})
            continue
        chart = funnel_chart(rows, labels, store)
        out.append(
            {
                "measure": m,
                "label": MEASURE_LABELS[m],
                "svg": Markup(chart.svg),
                "unlabelled": chart.unlabelled,
                "reading": reading(m),
                "phi": rows.group_by("stratum", maintain_order=True)
                .agg(pl.col("phi").first(), pl.col("over_dispersed").first())
                .to_dicts(),
            }
        )
    return out


def _audit_rows(marts: Marts, labels: dict[str, str] | None) -> list[dict]:
    """Per period, stratum and director (alphabetical, or by pseudonym: never by a figure)."""
    d = marts.director_audit
    if d.height == 0:
        return []
    keys = ["period", "stratum", "director"]
    base = d.filter(pl.col("measure") == MEASURES[0]).select(*keys, *DIRECTOR_FIGURES)
    # each director's rates by measure, gathered in one pass (a key with a null never matches)
    rates: dict[tuple, dict[str, dict]] = {}
    for x in d.to_dicts():
        key = (x["period"], x["stratum"], x["director"])
        if None not in key:
            rates.setdefault(key, {})[x["measure"]] = {**x, "tail_note": tail_note(x)}
    rows = []
    for r in base.to_dicts():
        name = (labels or {}).get(r["director"], r["director"])
        r["shown"] = name
        r["mix"] = ", ".join(f"{k.replace('_', ' ')} {r[k]}" for k in RULING_KINDS if r[k])
        r["rates"] = rates.get((r["period"], r["stratum"], r["director"]), {})
        rows.append(r)
    return sorted(rows, key=lambda r: (r["period"], r["stratum"], r["shown"]))


def _summary(marts: Marts) -> dict:
    a = marts.appeal_stats.filter(pl.col("dimension") == "all")
    p = marts.penalty_stats.filter((pl.col("dimension") == "all") & (pl.col("category") == "all"))
    return {
        "appeals": a.to_dicts()[0] if a.height else None,
        "penalties": p.to_dicts(),
    }


def _laws_table(inputs: AuditInputs) -> list[dict]:
    """Rulings by first law cited and kind (public: no notes, no pairs)."""
    r = inputs.rulings
    if r.height == 0:
        return []
    return (
        r.with_columns(pl.col("laws").str.split(";").list.first().alias("law"))
        .group_by("law", "kind")
        .agg(pl.len().alias("rulings"))
        .sort("law", "kind")
        .to_dicts()
    )


def _render(
    template: str,
    marts: Marts,
    labels: dict[str, str] | None,
    window: str,
    store: PanelStore,
    **values: object,
) -> Report:
    """The report ``template`` with what both reports show (the window, the controls, the
    funnel plots, the audit table with directors shown by ``labels`` when given, the measures
    and the summary) and its own ``values``. ``store``: the report's kept charts
    (:class:`~pipelines.reports.charts.PanelStore`: a chart whose data did not change since
    the last report is not drawn again); the charts it kept and this report did not use are
    removed."""
    d = marts.director_audit
    html = (
        _env()
        .get_template(template)
        .render(
            window=window,
            controls=d["controls"][0] if d.height else "",
            plots=_plots(marts, labels, store),
            rows=_audit_rows(marts, labels),
            measures=MEASURES,
            measure_labels=MEASURE_LABELS,
            summary=_summary(marts),
            **values,
        )
    )
    store.prune()
    return Report(html, key_figures(marts))


def render_audit(
    inputs: AuditInputs, window: str, charts: Path | None = None, marts: Marts | None = None
) -> Report:
    """The internal audit report of ``inputs`` (see the module docstring); ``charts``: the
    folder keeping its charts (:class:`~pipelines.reports.charts.PanelStore`; ``None`` draws
    every chart); ``marts``: those of ``inputs`` over ``window`` when already computed."""
    if marts is None:
        marts = build_marts(inputs, window=window)
    cases = marts.ruling_discrepancies
    return _render(
        "audit.html.j2",
        marts,
        None,
        window,
        PanelStore(charts),
        strata=marts.director_audit["stratum"].unique(maintain_order=True).to_list(),
        flagged=marts.director_audit.filter(pl.col("flagged").fill_null(False)).to_dicts(),
        cases=cases.head(MAX_CASES).to_dicts(),
        cases_total=cases.height,
        penalty_by_director=marts.penalty_stats.filter(
            (pl.col("dimension") == "director") & (pl.col("category") == "all")
        ).to_dicts(),
    )


def render_transparency(
    inputs: AuditInputs, window: str, charts: Path | None = None, marts: Marts | None = None
) -> Report:
    """The public transparency report of ``inputs`` (see the module docstring); ``charts`` as
    for :func:`render_audit` (the funnel panels and the monthly trend); ``marts``: those of
    ``inputs`` over ``window`` when already computed."""
    if marts is None:
        marts = build_marts(inputs, window=window)
    monthly = monthly_appeals(inputs)
    store = PanelStore(charts)
    return _render(
        "transparency.html.j2",
        marts,
        _labels("transparency", marts),
        window,
        store,
        laws=_laws_table(inputs),
        appeal_laws=marts.appeal_stats.filter(pl.col("dimension") == "law")
        .sort("value")
        .to_dicts(),
        months=monthly.sort("period").to_dicts(),
        trend=Markup(trend_chart(monthly, store)) if monthly.height else None,
    )


def chart_folder(out_dir: Path, kind: str) -> Path:
    """Where the ``kind`` report written into ``out_dir`` keeps its funnel panels: a hidden
    folder beside it (``.charts/audit``: the audit's panels name directors, and stay as
    private as the report)."""
    return Path(out_dir) / ".charts" / kind


#: The reports, in the order :func:`write_reports` renders them: the transparency report
#: labels the funnel panels the audit report laid out (:func:`~.figures.funnel_chart`).
KINDS: tuple[str, ...] = ("audit", "transparency")


def write_reports(
    kinds: Sequence[str],
    inputs: AuditInputs,
    out_dir: Path,
    date_from: str | None,
    date_to: str | None,
) -> dict[str, tuple[Path, dict[str, object]]]:
    """Render the reports ``kinds`` (of :data:`KINDS`) into ``out_dir/<kind>.html`` from one
    computation of the marts of their window (both show the same marts: they are computed
    once, not once per report); per kind, the path and the key figures. Each report's funnel
    panels are kept in ``out_dir/.charts/<kind>`` (:func:`chart_folder`) for the next."""
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown report(s): {', '.join(sorted(unknown))}")
    window = _window_label(date_from, date_to, inputs)
    marts = report_marts(inputs, window)
    render = {"audit": render_audit, "transparency": render_transparency}
    out: dict[str, tuple[Path, dict[str, object]]] = {}
    for kind in (k for k in KINDS if k in kinds):
        rep = render[kind](inputs, window, chart_folder(out_dir, kind), marts)
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"{kind}.html"
        path.write_text(rep.html, encoding="utf-8")
        out[kind] = (path, rep.figures)
    return out


def write_report(
    kind: str, inputs: AuditInputs, out_dir: Path, date_from: str | None, date_to: str | None
) -> tuple[Path, dict[str, object]]:
    """Render the ``kind`` report (``audit`` or ``transparency``) into ``out_dir/<kind>.html``
    (:func:`write_reports`); returns the path and the key figures."""
    return write_reports((kind,), inputs, out_dir, date_from, date_to)[kind]


def chart_jobs(
    kinds: Sequence[str], marts: Marts, inputs: AuditInputs, out_dir: Path
) -> list[tuple[Job, PanelStore]]:
    """The charts the reports ``kinds`` of ``marts`` show, each with its report's store
    (:func:`chart_folder`), in the order the reports draw them (:data:`KINDS`: the audit's
    panels, then the transparency's, the same panels with other names, then its trend)."""
    jobs: list[tuple[Job, PanelStore]] = []
    for kind in (k for k in KINDS if k in kinds):
        store = PanelStore(chart_folder(out_dir, kind))
        labels = _labels(kind, marts)
        for _m, rows in _measured(marts):
            if rows.height:
                jobs += [(job, store) for job in funnel_jobs(rows, labels)]
        if kind == "transparency":
            monthly = monthly_appeals(inputs)
            if monthly.height:
                jobs.append((trend_job(monthly), store))
    return jobs


@dataclass
class _Prepared:
    """The marts the reports of ``inputs`` over ``window`` show, computed ahead
    (:func:`prepare`)."""

    inputs: AuditInputs
    window: str
    marts: Marts


#: The reports' marts computed ahead by :func:`prepare` (at most one), until taken.
_PREPARED: list[_Prepared] = []


def _same(a: AuditInputs, b: AuditInputs) -> bool:
    """Whether two readings of the audit's inputs hold the same rows (values, types, order)."""
    frames = ("events", "boards", "rulings", "appeals", "sizes")
    for name in frames:
        x, y = getattr(a, name), getattr(b, name)
        if (x is None) != (y is None):
            return False
        if x is not None and not (x.schema == y.schema and x.equals(y)):
            return False
    return True


def report_marts(inputs: AuditInputs, window: str) -> Marts:
    """The marts of ``inputs`` over ``window`` (:func:`~pipelines.audit.marts.build_marts`):
    those :func:`prepare` computed when it was given the same inputs (equal frames) for the
    same window, else computed now."""
    prepared = _PREPARED.pop() if _PREPARED else None
    if prepared is not None and prepared.window == window and _same(prepared.inputs, inputs):
        return prepared.marts
    return build_marts(inputs, window=window)


def prepare(kinds: Sequence[str], inputs: AuditInputs, out_dir: Path) -> int:
    """Ahead of :func:`write_reports` of the whole of ``inputs`` into ``out_dir``, in a run
    whose drawing process is there (:mod:`pipelines.reports.drawing`): compute the marts the
    reports show and hand the drawing process the charts not kept from the last reports
    (:func:`~pipelines.reports.figures.prefetch`), drawn while this process goes on to other
    work; how many were handed over. Without a drawing process, nothing (the reports compute
    and draw everything themselves). Whatever fails here is only given up: the reports
    compute the same again, and fail there, loudly, if it fails again — the audit's marts are
    computed and checked all the same."""
    from pipelines.reports import drawing

    if not drawing.started():
        return 0
    drawing.when_stopped(_PREPARED.clear)
    try:
        window = _window_label(None, None, inputs)
        marts = build_marts(inputs, window=window)
        _PREPARED[:] = [_Prepared(inputs, window, marts)]
        return prefetch(chart_jobs(kinds, marts, inputs, out_dir))
    except Exception:
        _PREPARED.clear()
        return 0
