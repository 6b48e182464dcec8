"""The rows of the traveller and scorecard pages, made in columns.

A session's traveller pages list each table's result of a board, its scorecards each of a
contestant's boards: together about three rows of HTML for every result of the season. They
are made here for every session of a batch of events in a few passes over the batch's
results (Polars expressions), not one Python object per row and one Jinja loop per page; the
pages' templates (``traveller.html.j2``, ``scorecard.html.j2``) put the rows made here in
their tables as they are.

What a row shows is what :mod:`pipelines.publish.site` has always shown, worked out the same
way: the words of an adjusted score (:func:`~pipelines.publish.explain.explain`, with the
ruling's public note), the contract a ruling put in place of the table's
(:func:`~pipelines.publish.site.shown_contract`), the score of a line the IMP forms leave
without one (:func:`~pipelines.publish.lines.table_score`). An ordinary played line — no
ruling, one version of its board, a score — shows its own contract and score, taken as
columns; every other line is worked out row by row by those same functions
(:func:`shown_lines`). Texts are escaped as Jinja2's autoescaping escapes them
(:func:`escaped`: ``& < > ' "``; a missing text printed ``None`` where a template printed the
value itself), figures formatted by :func:`~pipelines.publish.common.fmt` itself
(:func:`figures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from pipelines.publish.common import fmt
from pipelines.publish.explain import MINUS

#: The fields of a line as a traveller and a scorecard show it (:func:`shown_lines`).
SHOWN_SCHEMA: dict[str, pl.DataType] = {
    "note": pl.String(),
    "contract": pl.String(),
    "declarer": pl.String(),
    "tricks": pl.Int64(),
    "ns_score": pl.Int64(),
}


def escaped(text: pl.Expr) -> pl.Expr:
    """``text`` as Jinja2's autoescaping prints it (:func:`markupsafe.escape`): ``&``, ``>``,
    ``<``, ``'`` and ``"`` replaced by their entities, in that order; a missing value
    printed ``None``."""
    return (
        text.cast(pl.String)
        .fill_null("None")
        .str.replace_all("&", "&amp;", literal=True)
        .str.replace_all(">", "&gt;", literal=True)
        .str.replace_all("<", "&lt;", literal=True)
        .str.replace_all("'", "&#39;", literal=True)
        .str.replace_all('"', "&#34;", literal=True)
    )


def or_empty(text: pl.Expr) -> pl.Expr:
    """``{{ text or "" }}``: the text escaped (:func:`escaped`), nothing when missing or
    empty."""
    return (
        pl.when(text.is_null() | (text.cast(pl.String) == ""))
        .then(pl.lit(""))
        .otherwise(escaped(text))
    )


def truthy(text: pl.Expr) -> pl.Expr:
    """Whether a template's ``{% if text %}`` holds: a text neither missing nor empty."""
    return text.is_not_null() & (text.cast(pl.String) != "")


def figures(values: pl.Series, places: pl.Series | int) -> pl.Series:
    """:func:`~pipelines.publish.common.fmt` of each value with its number of decimal
    ``places`` (one number for all, or one per value): the text the ``num`` filter prints.
    Each distinct value (its 64 bits: ``-0.0`` is not ``0.0``) is formatted once per number
    of places, by :func:`fmt` itself; a missing value, like NaN, prints nothing."""
    n = len(values)
    arr = values.cast(pl.Float64).to_numpy() if n else np.empty(0)  # a missing value: NaN
    bits = np.ascontiguousarray(arr, dtype=np.float64).view(np.int64)
    out = np.empty(n, dtype=object)
    if isinstance(places, int):
        groups = [(places, np.ones(n, dtype=bool))]
    else:
        each = places.cast(pl.Int64).to_numpy()
        groups = [(int(p), each == p) for p in np.unique(each)]
    for p, mask in groups:
        distinct, inverse = np.unique(bits[mask], return_inverse=True)
        texts = np.array([fmt(float(v), p) for v in distinct.view(np.float64)], dtype=object)
        out[mask] = texts[inverse.reshape(-1)]
    return pl.Series(out.tolist(), dtype=pl.String)


def shown_lines(
    results: pl.DataFrame,
    by_row: Callable[[dict[str, Any]], dict[str, Any]],
    full_rows: Callable[[pl.DataFrame], list[dict[str, Any]]] | None = None,
) -> pl.DataFrame:
    """The fields of :data:`SHOWN_SCHEMA` for every row of ``results`` (with ``versions``:
    how many versions its board has in its session), in order.

    An ordinary played line — kind ``played``, no adjustment, ruling or public note, one
    version of its board, a score — shows no words, its own contract, declarer and tricks
    and its score: taken as columns. Every other line is given by ``by_row`` (the site's
    own working out, :func:`~pipelines.publish.site.line_fields`) on the row as a dict —
    ``full_rows`` gives those rows (the default: the rows of ``results`` as they are)."""

    def col(name: str) -> pl.Expr:
        return pl.col(name) if name in results.columns else pl.lit(None)

    ordinary = (
        (col("kind") == "played")
        & col("adjustment").is_null()
        & col("ruling_kind").is_null()
        & col("ruling_public_note").is_null()
        & (pl.col("versions") == 1)
        & col("ns_score").is_not_null()
    ).fill_null(False)
    whole = results.with_row_index("__shown").with_columns(ordinary.alias("__ordinary"))
    as_columns = whole.filter(pl.col("__ordinary")).select(
        "__shown",
        pl.lit(None, pl.String).alias("note"),
        col("contract").cast(pl.String).alias("contract"),
        col("declarer").cast(pl.String).alias("declarer"),
        col("tricks").cast(pl.Int64).alias("tricks"),
        col("ns_score").cast(pl.Int64).alias("ns_score"),
    )
    rest = whole.filter(~pl.col("__ordinary"))
    rows = (
        full_rows(rest) if full_rows is not None else rest.drop("__shown", "__ordinary").to_dicts()
    )
    worked = [by_row(r) for r in rows]
    one_by_one = pl.DataFrame(
        {
            "__shown": rest["__shown"],
            **{
                name: pl.Series(name, [w[name] for w in worked], dtype=dtype)
                for name, dtype in SHOWN_SCHEMA.items()
            },
        }
    )
    return pl.concat([as_columns, one_by_one]).sort("__shown").drop("__shown")


def result_text(contract: pl.Expr, tricks: pl.Expr) -> pl.Expr:
    """The ``Tricks`` cell of a traveller or scorecard line: the tricks relative to the
    contract (``=``, ``+1``, ``−2``); the tricks themselves when the contract does not begin
    with its level; nothing without a contract or tricks, or for a pass."""
    level = contract.str.slice(0, 1)
    numeric = level.is_in(list("1234567"))
    over = tricks.cast(pl.Int64) - level.cast(pl.Int64, strict=False) - 6
    return (
        pl.when(contract.is_null() | (contract == "") | (contract == "PASS") | tricks.is_null())
        .then(pl.lit(""))
        .when(~numeric)
        .then(tricks.cast(pl.String))
        .when(over == 0)
        .then(pl.lit("="))
        .when(over > 0)
        .then(pl.concat_str(pl.lit("+"), over.cast(pl.String)))
        .otherwise(pl.concat_str(pl.lit(MINUS), (-over).cast(pl.String)))
    )


def score_cells(
    kind: pl.Expr, ns_art: pl.Expr, ew_art: pl.Expr, score: pl.Expr
) -> tuple[pl.Expr, pl.Expr]:
    """The NS and EW score cells of a traveller line: the side that scored shows the
    score (``0`` on the NS side); an artificial score each side's code (``A60``, ``A+``), a
    board not played ``NP``, a line without a score ``adj.``."""
    artificial = (kind == "artificial").fill_null(False)
    not_played = (kind == "not_played").fill_null(False)

    def code(art: pl.Expr) -> pl.Expr:
        return pl.concat_str(pl.lit("A"), art.cast(pl.String).fill_null(""))

    ns = (
        pl.when(artificial).then(code(ns_art))
        .when(not_played).then(pl.lit("NP"))
        .when(score.is_null()).then(pl.lit("adj."))
        .when(score >= 0).then(score.cast(pl.String))
        .otherwise(pl.lit(""))
    )  # fmt: skip
    ew = (
        pl.when(artificial).then(code(ew_art))
        .when(not_played).then(pl.lit("NP"))
        .when(score.is_null()).then(pl.lit("adj."))
        .when(score < 0).then((-score).cast(pl.String))
        .otherwise(pl.lit(""))
    )  # fmt: skip
    return ns, ew


#: What :func:`~pipelines.publish.site.sides` reads of a result besides the columns named for
#: a seat (``north_``, ``south_``, ``east_``, ``west_``), with the lines' keys and what a
#: scorecard line shows of its traveller line.
SIDE_INPUTS = (
    "event_id", "session", "section", "board", "deal_round", "table", "movement", "form",
    "ns_pair", "ew_pair", "north", "south", "east", "west", "ns_score", "kind", "ns_art",
    "ew_art", "ns_mp_display", "ew_mp_display", "ns_pct", "ew_pct", "ns_imps", "ew_imps",
    "ns_imps_display", "ew_imps_display", "__shown_note", "__shown_contract",
    "__shown_declarer", "__result", "__shown_score",
)  # fmt: skip

#: The columns of a result its traveller and scorecard rows are made of (with
#: :data:`SIDE_INPUTS`' and the seats' own, :data:`SEAT_PREFIXES`); an adjusted line's words
#: read its whole row.
PAGE_INPUTS = frozenset(
    {*SIDE_INPUTS, "adjustment", "ruling_kind", "ruling_public_note", "board_version", "contract",
     "declarer", "tricks", "datum", "top_display"}
)  # fmt: skip

#: The seats' own figures (:func:`~pipelines.publish.site.sides`: a south or west player's
#: own where the session-percentage rule gave him one).
SEAT_PREFIXES = ("north_", "south_", "east_", "west_")

#: The keys of a traveller page's rows and of a scorecard's.
BOARD_KEYS = ("event_id", "session", "section", "deal_round", "board")
CARD_KEYS = ("event_id", "session", "section", "who", "who_dir")


def _opening(adjusted: pl.Expr) -> pl.Expr:
    """A line's ``<tr>``, marked ``adjusted`` when it has words (an adjusted score)."""
    return pl.when(adjusted).then(pl.lit('<tr class="adjusted">\n')).otherwise(pl.lit("<tr>\n"))


def _names(names: pl.Expr) -> pl.Expr:
    """The names after a contestant's id (nothing without them)."""
    return (
        pl.when(truthy(names))
        .then(pl.concat_str(pl.lit(' <span class="names">'), escaped(names), pl.lit("</span>")))
        .otherwise(pl.lit(""))
    )


def _closing(adjusted: pl.Expr) -> pl.Expr:
    """A line's last cell — its adjusted score in words, marked — and the row's end."""
    note = pl.concat_str(
        pl.lit('<span class="mark" aria-hidden="true">*</span> '), escaped(pl.col("__shown_note"))
    )
    return pl.concat_str(
        pl.lit("<td>"), pl.when(adjusted).then(note).otherwise(pl.lit("")), pl.lit("</td>\n</tr>\n")
    )


def traveller_row() -> pl.Expr:
    """A traveller line's ``<tr>`` (``traveller.html.j2`` prints the rows as they are), from
    the columns :func:`page_rows` gives each line."""
    adjusted = truthy(pl.col("__shown_note"))

    def pair(side: str) -> pl.Expr:
        card, names = pl.col(f"__{side}_card"), pl.col(f"__{side}_names")
        who = escaped(pl.col(f"{side}_pair"))
        return pl.concat_str(
            pl.lit("<td>"),
            pl.when(truthy(card))
            .then(
                pl.concat_str(pl.lit('<a href="'), escaped(card), pl.lit('">'), who, pl.lit("</a>"))
            )
            .otherwise(who),
            _names(names),
            pl.lit("</td>\n"),
        )

    num = '<td class="num">'
    return pl.concat_str(
        _opening(adjusted),
        pair("ns"),
        pair("ew"),
        pl.lit("<td>"), or_empty(pl.col("__shown_contract")),
        pl.lit("</td><td>"), or_empty(pl.col("__shown_declarer")),
        pl.lit("</td><td>"), escaped(pl.col("__result")),
        pl.lit(f"</td>\n{num}"), escaped(pl.col("__ns_cell")),
        pl.lit(f"</td>{num}"), escaped(pl.col("__ew_cell")),
        pl.lit("</td>\n"),
        pl.when(pl.col("__mp"))
        .then(pl.concat_str(pl.lit(num), pl.col("__ns_mp_text"), pl.lit(f"</td>{num}"),
                            pl.col("__ew_mp_text"), pl.lit("</td>")))
        .otherwise(pl.lit("")),
        pl.when(pl.col("__imps"))
        .then(pl.concat_str(pl.lit(num), pl.col("__ns_imp_text"), pl.lit(f"</td>{num}"),
                            pl.col("__ew_imp_text"), pl.lit("</td>")))
        .otherwise(pl.lit("")),
        _closing(adjusted),
    )  # fmt: skip


def scorecard_row() -> pl.Expr:
    """A scorecard line's ``<tr>`` (``scorecard.html.j2`` prints the rows as they are), from
    the columns :func:`page_rows` gives each seat."""
    adjusted = truthy(pl.col("__shown_note"))
    num = '<td class="num">'
    names = pl.col("__against_names")
    return pl.concat_str(
        _opening(adjusted),
        pl.lit('<th scope="row"><a href="'), escaped(pl.col("__board_href")),
        pl.lit('">'), escaped(pl.col("__board_label")), pl.lit("</a></th>\n<td>"),
        escaped(pl.col("side")), pl.lit("</td><td>"), escaped(pl.col("against")),
        _names(names),
        pl.lit("</td><td>"), or_empty(pl.col("__shown_contract")),
        pl.lit("</td>\n<td>"), or_empty(pl.col("__shown_declarer")),
        pl.lit("</td><td>"), escaped(pl.col("__result")),
        pl.lit(f"</td>\n{num}"), escaped(pl.col("__score_cell")), pl.lit("</td>"),
        pl.when(pl.col("__mp"))
        .then(pl.concat_str(pl.lit(num), pl.col("__mp_text"), pl.lit(f"</td>\n{num}"),
                            pl.col("__pct_text"), pl.lit("</td>")))
        .otherwise(pl.lit("")),
        pl.when(pl.col("__imps"))
        .then(pl.concat_str(pl.lit(num), pl.col("__imp_text"), pl.lit("</td>")))
        .otherwise(pl.lit("")),
        _closing(adjusted),
    )  # fmt: skip


@dataclass
class SessionRows:
    """The rows of one session's traveller and scorecard pages (:func:`page_rows`)."""

    #: each board's traveller, keyed ``(section, deal_round, board)``: its rows' HTML (the
    #: best NS score first), and its first row's ``datum`` and ``top_display``
    travellers: dict[tuple[Any, int, int], tuple[str, Any, Any]] = field(default_factory=dict)
    #: each contestant's scorecard lines' HTML, keyed ``(section, contestant, direction or "")``
    cards: dict[tuple[Any, Any, str], str] = field(default_factory=dict)
    #: the figures the pages show: matchpoints, IMPs
    mp: bool = True
    imps: bool = False
    #: whether the results carry a datum (the IMP forms)
    has_datum: bool = False
    #: whether the session is an individual (Law 89): a scorecard is a player's
    individual: bool = False


def page_rows(
    results: pl.DataFrame,
    sessions: pl.DataFrame,
    contestants: pl.DataFrame,
    by_row: Callable[[dict[str, Any]], dict[str, Any]],
    sides: Callable[[pl.DataFrame], pl.DataFrame],
) -> dict[tuple[str, int], SessionRows]:
    """The rows of the traveller and scorecard pages of ``sessions`` (``event_id``,
    ``session``, ``places``: the decimals of its matchpoints), from their ``results`` (in the
    order the site reads them) and their ``contestants`` (``event_id``, ``session``,
    ``section``, ``contestant``, ``dir`` — the direction or ``""`` —, ``names``, ``card``: the
    link to its scorecard from its section's boards, ``boards``: the way from its scorecard's
    folder to its section's boards, ending in ``/`` unless the same folder). ``by_row``: the
    fields of a line that is not an ordinary played line (:func:`shown_lines`); ``sides``:
    each line from each contestant's seat (:func:`~pipelines.publish.site.sides`)."""
    out = {key: SessionRows() for key in sessions.select("event_id", "session").iter_rows()}
    if not results.height:
        return out
    # the columns the rows are made of (an adjusted line's words read its whole row, taken
    # from ``results`` by its place): every batch's lines are not copied whole by the joins
    wanted = [c for c in results.columns if c in PAGE_INPUTS or c.startswith(SEAT_PREFIXES)]
    res = results.select(wanted).with_row_index("__at")
    if "deal_round" not in res.columns:
        res = res.with_columns(pl.lit(0, pl.Int32).alias("deal_round"))
    res = res.with_columns(pl.col("deal_round").fill_null(0))
    deal = ["event_id", "session", "section", "deal_round", "board"]
    versions = res.group_by(deal).agg(
        pl.col("board_version").fill_null("A").n_unique().alias("versions")
        if "board_version" in res.columns
        else pl.lit(1, pl.UInt32).alias("versions")
    )
    res = res.join(versions, on=deal, how="left", maintain_order="left")

    def whole(rest: pl.DataFrame) -> list[dict[str, Any]]:
        """The whole rows of ``rest`` (its lines of ``res``), with their board's versions."""
        full = results[rest["__at"]].with_columns(rest["versions"], deal_round=rest["deal_round"])
        return full.to_dicts()

    shown = shown_lines(res, by_row, whole).rename(
        {k: f"__shown_{k}" for k in ("note", "contract", "declarer", "tricks")}
        | {"ns_score": "__shown_score"}
    )
    res = pl.concat([res, shown], how="horizontal")

    def col(name: str, dtype: pl.DataType | None = None) -> pl.Expr:
        return pl.col(name) if name in res.columns else pl.lit(None, dtype or pl.String())

    score = pl.col("__shown_score")
    ns_cell, ew_cell = score_cells(col("kind"), col("ns_art"), col("ew_art"), score)
    flags = res.group_by("event_id", "session").agg(
        col("ns_mp_display", pl.Float64()).is_not_null().any().alias("__mp"),
        (col("ns_imps", pl.Float64()).is_not_null().any() if "ns_imps" in res.columns
         else pl.lit(False)).alias("__imps"),
        (col("form") == "individual").any().fill_null(False).alias("__individual"),
    )  # fmt: skip
    for event_id, n, mp, imps, individual in flags.iter_rows():
        rows = out[(event_id, n)]
        rows.mp, rows.imps, rows.individual = bool(mp), bool(imps), bool(individual)
        rows.has_datum = "datum" in res.columns
    styles = sessions.select("event_id", "session", pl.col("places").cast(pl.Int64)).join(
        flags.select("event_id", "session", "__mp", "__imps"), on=["event_id", "session"]
    )
    res = res.with_columns(
        pl.col("__shown_score").cast(pl.Int64),
        __result=result_text(pl.col("__shown_contract"), pl.col("__shown_tricks")),
        __ns_cell=ns_cell,
        __ew_cell=ew_cell,
    ).join(styles, on=["event_id", "session"], how="left", maintain_order="left")
    out_travellers(res, contestants, out)
    out_cards(res, contestants, sides, out)
    return out


def _imp(res: pl.DataFrame, side: str) -> pl.Series:
    """A line's IMPs as a traveller shows them: the displayed IMPs where the results carry
    them, else the IMPs, else none."""
    for name in (f"{side}_imps_display", f"{side}_imps"):
        if name in res.columns:
            return res[name]
    return pl.Series([None] * res.height, dtype=pl.Float64)


def out_travellers(
    res: pl.DataFrame, contestants: pl.DataFrame, out: dict[tuple[str, int], SessionRows]
) -> None:
    """Each board's traveller rows (:func:`traveller_row`) into ``out``."""
    mp_of = res["ns_mp_display"] if "ns_mp_display" in res.columns else None
    texts = {
        "__ns_mp_text": figures(mp_of, res["places"]) if mp_of is not None else None,
        "__ew_mp_text": figures(res["ew_mp_display"], res["places"])
        if "ew_mp_display" in res.columns
        else None,
        "__ns_imp_text": figures(_imp(res, "ns"), 2),
        "__ew_imp_text": figures(_imp(res, "ew"), 2),
    }
    extra = [c for c in ("datum", "top_display") if c in res.columns]
    shown = ["ns_pair", "ew_pair", "movement", "__shown_note", "__shown_contract",
             "__shown_declarer", "__shown_score", "__result", "__ns_cell", "__ew_cell", "__mp",
             "__imps"]  # fmt: skip
    lines = res.select(*BOARD_KEYS, *shown, *extra).with_columns(
        **{k: (v if v is not None else pl.lit("")) for k, v in texts.items()}
    )
    mitchell = (pl.col("movement") == "mitchell").fill_null(False)
    people = contestants.select(
        "event_id", "session", "section", "contestant", "dir", "names", "card"
    )
    for side, own in (("ns", "NS"), ("ew", "EW")):
        lines = lines.with_columns(
            pl.when(mitchell).then(pl.lit(own)).otherwise(pl.lit("")).alias("__dir")
        ).join(
            people.rename({"contestant": f"{side}_pair", "dir": "__dir", "names": f"__{side}_names",
                           "card": f"__{side}_card"}),
            on=["event_id", "session", "section", f"{side}_pair", "__dir"],
            how="left", maintain_order="left", nulls_equal=True,
        )  # fmt: skip
    score = pl.col("__shown_score")
    boards = (
        lines.select(*BOARD_KEYS, score, *extra, __html=traveller_row())
        .sort([score.is_null(), -score.fill_null(0)], maintain_order=True)
        .group_by(list(BOARD_KEYS), maintain_order=True)
        .agg(pl.col("__html").str.join(""), *(pl.col(c).first() for c in extra))
    )
    for row in boards.iter_rows(named=True):
        out[(row["event_id"], row["session"])].travellers[
            (row["section"], row["deal_round"], row["board"])
        ] = (row["__html"], row.get("datum"), row.get("top_display"))


def out_cards(
    res: pl.DataFrame,
    contestants: pl.DataFrame,
    sides: Callable[[pl.DataFrame], pl.DataFrame],
    out: dict[tuple[str, int], SessionRows],
) -> None:
    """Each contestant's scorecard lines (:func:`scorecard_row`) into ``out``."""
    wanted = [
        c for c in res.columns
        if c in SIDE_INPUTS or c.startswith(SEAT_PREFIXES) or c in ("places", "__mp", "__imps")
    ]  # fmt: skip
    seats = sides(res.select(wanted))
    order = [c for c in ("deal_round", "board", "table", "side") if c in seats.columns]
    seats = seats.sort(order, nulls_last=True, maintain_order=True).with_columns(
        pl.col("who_dir").fill_null("")
    )
    ns = pl.col("side") == "NS"
    own = pl.coalesce(
        pl.col("own_score"), pl.col("__shown_score") * pl.when(ns).then(1).otherwise(-1)
    )
    kind = pl.col("kind") if "kind" in seats.columns else pl.lit(None, pl.String)

    def art(name: str) -> pl.Expr:
        return pl.col(name).cast(pl.String) if name in seats.columns else pl.lit(None, pl.String)

    score_cell = (
        pl.when(kind == "artificial")
        .then(pl.concat_str(pl.lit("A"),
                            pl.when(ns).then(art("ns_art")).otherwise(art("ew_art")).fill_null("None")))
        .when(kind == "not_played").then(pl.lit("NP"))
        .when(own.is_null()).then(pl.lit("adj."))
        .otherwise(own.cast(pl.String).str.replace_all("-", MINUS, literal=True))
    )  # fmt: skip
    opponent = (
        pl.when(pl.col("who_dir") == "")
        .then(pl.lit(""))
        .when(ns)
        .then(pl.lit("EW"))
        .otherwise(pl.lit("NS"))
    )
    deal_round = pl.col("deal_round")
    seats = seats.with_columns(
        __score_cell=score_cell,
        __opp=opponent,
        __board_label=pl.when(deal_round.is_not_null() & (deal_round != 0))
        .then(pl.format("R{} {}", deal_round, pl.col("board")))
        .otherwise(pl.col("board").cast(pl.String)),
        __board_file=pl.concat_str(
            pl.lit("board-"),
            pl.when(deal_round.is_not_null() & (deal_round != 0))
            .then(pl.format("r{}-", deal_round))
            .otherwise(pl.lit("")),
            pl.col("board").cast(pl.String),
            pl.lit(".html"),
        ),
    )
    seats = seats.join(
        contestants.select("event_id", "session", "section", pl.col("contestant").alias("against"),
                           pl.col("dir").alias("__opp"), pl.col("names").alias("__against_names")),
        on=["event_id", "session", "section", "against", "__opp"],
        how="left", maintain_order="left", nulls_equal=True,
    ).join(
        contestants.select("event_id", "session", "section", pl.col("contestant").alias("who"),
                           pl.col("dir").alias("who_dir"), pl.col("boards").alias("__to_boards")),
        on=["event_id", "session", "section", "who", "who_dir"],
        how="left", maintain_order="left", nulls_equal=True,
    )  # fmt: skip
    seats = seats.with_columns(
        __board_href=pl.concat_str(pl.col("__to_boards"), pl.col("__board_file")),
        __mp_text=figures(seats["own_mp"], seats["places"]),
        __pct_text=figures(seats["own_pct"], 1),
        __imp_text=figures(seats["own_imp"], 2),
    )
    cards = (
        seats.select(*CARD_KEYS, __html=scorecard_row())
        .group_by(list(CARD_KEYS), maintain_order=True)
        .agg(pl.col("__html").str.join(""))
    )
    for event_id, n, section, who, who_dir, html in cards.iter_rows():
        out[(event_id, n)].cards[(section, who, who_dir)] = html
