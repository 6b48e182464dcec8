"""Player pages: one page per player across the season, the player index and its search.

Who is a player. A contestant's names are split into its players (``sql/publish/players``: a
pair's two, a team's members, an individual's one), so a pair is matched across events by its
members, never by its pair number, and a player who changes partner keeps one page. Two lines
are the same player when they carry the same national membership number (used inside the query
only, as a key that is never written anywhere: no page, file name or index holds a membership
number or anything made of one); a line without one is the player of the same name (case and
spacing aside) and club, or the only numbered player of that name and club when there is one.

``players/<name>.html`` lists every event and session the player's names appear in — date,
event, partner (team-mates in a team event; nobody in an individual), place (as the event's
profile prints it, with the size of the field) and percentage (the score with its unit at
IMPs and VPs), each linking to the scorecard or the event — the event total under the sessions
of an event of several, and a small chart of the session percentages over time (an inline SVG
from a template: integer percentages on the axis, the dates in play order). A page's address
is the player's name (``Zuzu-Olkapon.html``); two players of one name are told apart by their
club (``Zuzu-Olkapon-Velmoor.html``), then by ``-2`` in the order they first played.

``players/index.json`` is the static index the search box reads (``name``, ``club``, ``href``,
``sessions``; no server); ``players/index.html`` holds the box (``search.js``, which shows each
found name as text, never as markup) and every player in alphabetical order for a browser
without scripts or a site opened from the disk.

Publishing costs what changed: the player lines of the whole warehouse come from one query; a
page is rendered only when what it shows changed since the last publication (its digest in the
site's manifest, as the sessions' pages are), and the index is written only when its bytes did.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from datetime import date
from typing import Any, Protocol

import polars as pl
from markupsafe import Markup, escape

from pipelines import progress
from pipelines.publish.common import (
    GUID,
    Decimals,
    card_name,
    card_names,
    slug,
    slug_expr,
)
from pipelines.publish.explain import place_text
from pipelines.publish.files import digest
from pipelines.publish.rows import escaped, figures, truthy
from pipelines.split import parts_by

#: The folder of the player pages, relative to the site root.
PLAYERS_DIR = "players"
#: The line keys of a standing (the contestant's line in one ranking).
LINE = ("event_id", "scope", "session", "section", "contestant", "direction")
#: The columns of a standing a player's line shows (:func:`row_html`) besides :data:`LINE`.
SHOWN = (
    "session_date", "names", "rank", "tied", "sanction", "score_display",
    "percentage_display", "unit", "profile",
)  # fmt: skip
#: A chart's drawing area, in SVG units (the SVG scales to the page's width).
CHART_W, CHART_H = 480, 200
_LEFT, _RIGHT, _TOP, _BOTTOM = 50, 16, 12, 36
#: The least distance between two dates written under the chart: a date such as ``12 Nov``
#: is at most 50 units wide in the chart's 14-unit text, so no two overlap.
DATE_GAP = 60


class SitePages(Protocol):
    """What a page kind needs of the site it is written into (:class:`~.site.Site`)."""

    folders: dict[str, str]

    def keep(self, key: str, made_from: str | None) -> bool: ...

    kept_events: set[str]

    def record(self, key: str, made_from: str, first: int) -> None: ...

    def write(self, rel: str, template: str, **ctx: Any) -> None: ...

    def write_file(self, rel: str, data: bytes) -> None: ...

    def page_count(self) -> int: ...


def with_member_keys(lines: pl.DataFrame, keys: pl.DataFrame | None) -> pl.DataFrame:
    """``lines`` (one row per player of a standing) with ``member_key``: the key of the
    membership number its contestant's row of ``contestants`` gives that player (same event,
    number and names; a row naming a section only for that one, and one naming a direction
    only for that one where the standing has a direction — a Howell's contestant has none, so
    a list giving a pair's starting direction, as a one-winner Mitchell's does, still names
    it), else null."""
    if keys is None or not keys.height:
        return lines.with_columns(pl.lit(None, pl.Utf8).alias("member_key"))
    k = keys.rename({"direction": "__kdir", "section": "__ksec"}).with_columns(
        pl.col("position").cast(pl.Int64)
    )
    on = ["event_id", "contestant", "names", "position"]
    # a line is one player of one standing: it is found again by its row (a number), not by
    # the standing's six keys and the position
    lines = lines.with_columns(pl.col("position").cast(pl.Int64)).with_row_index("__line")
    found = (
        lines.select("__line", *on, "section", "direction")
        .join(k, on=on, how="inner")
        .filter(
            (
                pl.col("__kdir").is_null()
                | pl.col("direction").is_null()
                | (pl.col("__kdir") == pl.col("direction"))
            )
            & (pl.col("__ksec").is_null() | (pl.col("__ksec") == pl.col("section")))
        )
        .group_by("__line")
        .agg(pl.col("member_key").min())
    )
    return lines.join(found, on="__line", how="left", maintain_order="left").drop("__line")


def identities(lines: pl.DataFrame) -> pl.DataFrame:
    """``lines`` (:meth:`PlayerPages._prepared`) with ``identity``: the key of the player each line
    names (see the module docstring), ``name_key`` and ``club_key``."""
    name_key = pl.col("player").str.to_lowercase().str.replace_all(r"\s+", " ").str.strip_chars()
    club = pl.col("club").fill_null("")
    df = lines.with_columns(
        name_key.alias("name_key"),
        # a club that is a program's GUID (a .bws event's default club) names no club
        pl.when(club.str.contains(GUID.pattern)).then(pl.lit("")).otherwise(club).alias("club_key"),
    )
    numbered = (
        df.filter(pl.col("member_key").is_not_null())
        .group_by("name_key", "club_key")
        .agg(
            pl.col("member_key").n_unique().alias("__members"),
            pl.col("member_key").first().alias("__only"),
        )
    )
    df = df.join(numbered, on=["name_key", "club_key"], how="left")
    return df.with_columns(
        pl.coalesce(
            "member_key",
            pl.when(pl.col("__members") == 1).then(pl.col("__only")),
            pl.lit("n:") + pl.col("name_key") + pl.lit("|") + pl.col("club_key"),
        ).alias("identity")
    ).drop("__members", "__only")


def with_partners(lines: pl.DataFrame) -> pl.DataFrame:
    """``lines`` with ``partners``: the other players of the same standing (a pair's partner,
    a team's other members), in the order the file names them; empty for an individual."""
    own = lines.select(*LINE, "position")
    others = lines.select(*LINE, pl.col("position").alias("__pos"), pl.col("player"))
    joined = (
        own.join(others, on=list(LINE), how="inner", nulls_equal=True)
        .filter(pl.col("__pos") != pl.col("position"))
        .sort("__pos")
        .group_by(*LINE, "position", maintain_order=True)
        .agg(pl.col("player").str.join(" & ").alias("partners"))
    )
    return lines.join(joined, on=[*LINE, "position"], how="left", nulls_equal=True).with_columns(
        pl.col("partners").fill_null("")
    )


def shared_forms(standings: pl.DataFrame) -> dict[tuple[str, Any], dict[tuple, str]]:
    """The scorecards' names (:func:`~.common.card_names`) of the sessions where two
    contestants of one section and direction have ids of one file-name form (``6`` and
    ``6.``), or two section names of one form (``A/B`` and ``A-B``), by ``(event_id,
    session)``; every other session's scorecards are named by
    :func:`~.common.card_name` alone. Found in one vectorised pass over the ids' forms
    (:func:`~.common.slug_expr`)."""
    if not standings.height or "contestant" not in standings.columns:
        return {}
    st = standings.filter(pl.col("scope") == "session").select(
        "event_id", "session", "section", "contestant", "direction"
    )
    keys = ["event_id", "session", "section", "direction"]
    shared_ids = (
        st.with_columns(slug_expr(pl.col("contestant")).alias("__form"))
        .group_by(*keys, "__form")
        .agg(pl.col("contestant").n_unique().alias("__n"))
        .filter(pl.col("__n") > 1)
        .select("event_id", "session")
    )
    # two sections of one form (``A/B`` and ``A-B``): two folders (:func:`~.common.section_dirs`)
    shared_sections = (
        st.filter(pl.col("section").is_not_null() & (pl.col("section") != ""))
        .with_columns(slug_expr(pl.col("section")).alias("__form"))
        .group_by("event_id", "session", "__form")
        .agg(pl.col("section").n_unique().alias("__n"))
        .filter(pl.col("__n") > 1)
        .select("event_id", "session")
    )
    shared = pl.concat([shared_ids, shared_sections]).unique()
    if not shared.height:
        return {}
    rows = st.join(shared, on=["event_id", "session"], how="semi")
    return {
        (event_id, session): card_names(part.select("section", "contestant", "direction").rows())
        for (event_id, session), part in parts_by(rows, ["event_id", "session"]).items()
    }


def page_names(players: pl.DataFrame) -> dict[str, str]:
    """Each identity's page file name (without ``.html``): its name; two players of one name
    told apart by their club, then ``-2``, ``-3`` ... in the order they first played.
    ``players`` has one row per identity: ``identity``, ``name``, ``club``, ``first``."""
    rows = sorted(players.to_dicts(), key=lambda r: (r["first"], r["identity"]))
    by_name: dict[str, list[dict]] = {}
    for r in rows:
        by_name.setdefault(slug(r["name"]).lower(), []).append(r)
    out: dict[str, str] = {}
    taken: set[str] = {"index"}  # players/index.html is the player index
    for group in by_name.values():
        for r in group:
            base = slug(r["name"])
            if len(group) > 1 and r["club"]:
                base = slug(f"{r['name']}-{r['club']}")
            name, n = base, 1
            while name.lower() in taken:
                n += 1
                name = f"{base}-{n}"
            taken.add(name.lower())
            out[r["identity"]] = name
    return out


def short_date(iso: str) -> str:
    """``2026-11-02`` as the chart writes it under a dot: ``2 Nov`` (``Nov 2026`` is the
    caption's business: a season's dates are few months apart)."""
    try:
        d = date.fromisoformat(iso)
    except (TypeError, ValueError):
        return str(iso or "")
    return f"{d.day} {d.strftime('%b')}"


def chart(points: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The percentage chart of a player's sessions (``date``, ``pct`` floats, ``pct_text`` as
    printed, in play order; ``title``, when given, the dot's title already escaped): the
    polyline, the dots (``dots``, and as the page draws them, ``circles``), the horizontal
    grid every 10 % (integer labels) with the 50 % line marked, and the dates under the dots,
    no two nearer than :data:`DATE_GAP`; ``None`` without a session percentage."""
    pts = [p for p in points if p["pct"] is not None]
    if not pts:
        return None
    low = min(p["pct"] for p in pts)
    high = max(p["pct"] for p in pts)
    lo = max(0, math.floor((min(low, 50) - 5) / 10) * 10)
    hi = min(100, math.ceil((max(high, 50) + 5) / 10) * 10)
    width, height = CHART_W - _LEFT - _RIGHT, CHART_H - _TOP - _BOTTOM

    def y(v: float) -> float:
        return round(_TOP + height * (hi - v) / (hi - lo), 1)

    n = len(pts)
    # each dot's title as the page prints it: given escaped (``title``), else escaped here
    titles = [p.get("title") or escape(f"{p['date']}: {p['pct_text']} %") for p in pts]
    xs = [round(_LEFT + (width * (i + 0.5) / n), 1) for i in range(n)]
    dots = [
        {"x": x, "y": y(p["pct"]), "label": f"{p['date']}: {p['pct_text']} %"}
        for x, p in zip(xs, pts, strict=True)
    ]
    # the dates: under the first dot of each date, skipping a date too near the last written
    firsts: list[int] = []
    for i in range(n):
        new_date = i == 0 or pts[i]["date"] != pts[i - 1]["date"]
        if new_date and (not firsts or xs[i] - xs[firsts[-1]] >= DATE_GAP):
            firsts.append(i)
    return {
        "width": CHART_W,
        "height": CHART_H,
        "left": _LEFT,
        "right": CHART_W - _RIGHT,
        "bottom": _TOP + height,
        "grid": [{"y": y(v), "label": str(v), "average": v == 50} for v in range(lo, hi + 1, 10)],
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        # the dots as the page draws them, each with its date and percentage as its title
        "circles": Markup(
            "\n".join(
                f'<circle class="dot" cx="{d["x"]}" cy="{d["y"]}" r="4"><title>{t}</title></circle>'
                for d, t in zip(dots, titles, strict=True)
            )
        ),
        "dates": [{"x": xs[i], "label": short_date(pts[i]["date"])} for i in firsts],
        "date_y": _TOP + height + 18,
        "sessions": n,
    }


#: The columns of a standing a player's line may lack (a snapshot without them), with their
#: types: missing, as before.
_OPTIONAL: dict[str, pl.DataType] = {
    "sanction": pl.Utf8(),
    "unit": pl.Utf8(),
    "profile": pl.Utf8(),
    "percentage_display": pl.Float64(),
    "score_display": pl.Float64(),
    "direction": pl.Utf8(),
    "span": pl.UInt32(),
    "field": pl.UInt32(),
}


def row_html() -> pl.Expr:
    """A line of a player's table as HTML, from the columns :meth:`PlayerPages._shown` works
    out: its date; the event (the session's title, ``, session N`` in an event of several,
    ``, event total`` for an event's total) linking to the scorecard or to the event's page,
    with the partners; the place with the size of the field; the percentage, else the score
    with its unit (``MP`` when the line names none). Texts escaped as Jinja escapes them
    (:func:`~.rows.escaped`)."""
    session = pl.col("scope") == "session"
    title = pl.coalesce("__title", "__first")
    event = (
        pl.when(session & pl.col("__several"))
        .then(pl.concat_str(title, pl.lit(", session "), pl.col("session").cast(pl.Utf8)))
        .when(session)
        .then(title)
        .otherwise(pl.concat_str(title, pl.lit(", event total")))
    )
    href = (
        pl.when(session)
        .then(
            pl.concat_str(
                pl.lit("../events/"), "__folder", pl.lit("/s"), pl.col("session").cast(pl.Utf8),
                pl.lit("/"), pl.coalesce("__own", "__card"),
            )
        )
        .otherwise(pl.concat_str(pl.lit("../events/"), "__folder", pl.lit("/index.html")))
    )  # fmt: skip
    unit = pl.when(truthy(pl.col("unit"))).then(pl.col("unit")).otherwise(pl.lit("MP"))
    partners, field = pl.col("partners"), pl.col("field")
    return pl.concat_str(
        pl.when(pl.col("scope") == "event")
        .then(pl.lit('<tr class="total">\n'))
        .otherwise(pl.lit("<tr>\n")),
        pl.lit("<td>"), escaped(pl.col("date")), pl.lit("</td>\n"),
        pl.lit('<th scope="row"><a href="'), escaped(href), pl.lit('">'), escaped(event),
        pl.lit("</a>"),
        pl.when(truthy(partners))
        .then(pl.concat_str(pl.lit(' <span class="names">with '), escaped(partners),
                            pl.lit("</span>")))
        .otherwise(pl.lit("")),
        pl.lit("</th>\n<td>"), escaped(pl.col("__place")),
        pl.when(field.is_not_null() & (field != 0))
        .then(pl.concat_str(pl.lit(' <span class="muted">of '), field.cast(pl.Utf8),
                            pl.lit("</span>")))
        .otherwise(pl.lit("")),
        pl.lit('</td>\n<td class="num">'),
        pl.when(pl.col("__pct") != "")
        .then(pl.concat_str(escaped(pl.col("__pct")), pl.lit(" %")))
        .otherwise(escaped(pl.concat_str("__total", pl.lit(" "), unit))),
        pl.lit("</td>\n</tr>\n"),
    )  # fmt: skip


def index_item() -> pl.Expr:
    """Each player's line of the players' index, as the index page prints it (one ``<li>``
    per row of :meth:`PlayerPages.players`, ``\n`` after each): the page linked by the
    name, then the club when there is one; texts escaped as Jinja escapes them."""
    club = pl.col("club")
    return pl.concat_str(
        pl.lit('<li><a href="'),
        escaped(pl.concat_str(pl.col("page"), pl.lit(".html"))),
        pl.lit('">'),
        escaped(pl.col("name")),
        pl.lit("</a>"),
        pl.when(truthy(club))
        .then(pl.concat_str(pl.lit(' <span class="muted">'), escaped(club), pl.lit("</span>")))
        .otherwise(pl.lit("")),
        pl.lit("</li>\n"),
    )


class PlayerPages:
    """The player pages of one publication (see the module docstring)."""

    def __init__(
        self,
        standings: pl.DataFrame,
        keys: pl.DataFrame | None,
        sessions: list[dict[str, Any]],
    ) -> None:
        """``standings``: the published standings (newest versions, both scopes); ``keys``:
        the players' membership keys (``sql/publish/players``); ``sessions``: the published
        sessions with their readable titles and clubs (:func:`~.site.readable`)."""
        self.sessions = {(s["event_id"], s["session"]): s for s in sessions}
        self.per_event: dict[str, int] = {}
        #: each event's first session (its title and club)
        self.first: dict[str, dict[str, Any]] = {}
        for (event_id, _), s in sorted(self.sessions.items(), key=lambda kv: kv[0][1]):
            self.per_event[event_id] = self.per_event.get(event_id, 0) + 1
            self.first.setdefault(event_id, s)
        self.lines = self._prepared(standings, keys)
        self.cards = shared_forms(standings)

    def _prepared(self, standings: pl.DataFrame, keys: pl.DataFrame | None) -> pl.DataFrame:
        """Every player's lines: the standings of published sessions (and the event totals
        of events of several) split into one row per player named, with the ranking's size
        (``field``), the span of a shared place, the event's club, the player's membership
        key where the file gave one and identity (partners: :meth:`views`)."""
        if not standings.height or "names" not in standings.columns:
            return pl.DataFrame()
        published = pl.DataFrame(
            [{"event_id": e, "session": s} for e, s in self.sessions],
            schema={"event_id": pl.Utf8, "session": standings.schema["session"]},
            orient="row",
        )
        several = [e for e, n in self.per_event.items() if n > 1]
        ranking = ["event_id", "scope", "session", "section", "direction"]
        # the columns a player's line shows or is found by (:meth:`views`), the others left
        # before the season's standings are split into one row per player
        st = standings.select(c for c in (*LINE, *SHOWN) if c in standings.columns)
        st = st.with_columns(
            pl.len().over(ranking).alias("field"),
            pl.len().over(*ranking, "rank").alias("span"),
        )
        st = pl.concat(
            [
                st.filter(pl.col("scope") == "session").join(
                    published, on=["event_id", "session"], how="semi"
                ),
                st.filter((pl.col("scope") == "event") & pl.col("event_id").is_in(several)),
            ]
        ).filter(pl.col("names").str.strip_chars().str.len_chars() > 0)
        if not st.height:
            return pl.DataFrame()
        clubs = pl.DataFrame(
            {
                "event_id": list(self.first),
                "club": [s.get("club") for s in self.first.values()],
            },
            schema={"event_id": pl.Utf8, "club": pl.Utf8},
        )
        lines = (
            st.with_columns(
                pl.col("session_date").cast(pl.Utf8).alias("date"),
                pl.col("names")
                .str.replace_all(" - ", " & ", literal=True)
                .str.split(" & ")
                .alias("__players"),
            )
            .with_columns(pl.int_ranges(1, pl.col("__players").list.len() + 1).alias("position"))
            .explode("__players", "position")
            .with_columns(pl.col("__players").str.strip_chars().alias("player"))
            .filter(pl.col("player").str.len_chars() > 0)
            .drop("__players")
            .join(clubs, on="event_id", how="left")
        )
        # partners are found for the lines of the pages made (:meth:`views`), not for all
        return identities(with_member_keys(lines, keys))

    def players(self) -> pl.DataFrame:
        """One row per player: identity, the name and club of its latest line, its first
        date, how many sessions it played, and its page name (``page``)."""
        if not self.lines.height:
            return pl.DataFrame(
                schema={
                    "identity": pl.Utf8,
                    "name": pl.Utf8,
                    "club": pl.Utf8,
                    "first": pl.Utf8,
                    "sessions": pl.UInt32,
                    "page": pl.Utf8,
                }
            )
        order = ["date", "event_id", "session"]
        people = (
            self.lines.sort(order, nulls_last=True)
            .group_by("identity", maintain_order=True)
            .agg(
                pl.col("player").last().alias("name"),
                pl.col("club_key").last().alias("club"),
                pl.col("date").min().alias("first"),
                (pl.col("scope") == "session").sum().alias("sessions"),
            )
        )
        pages = page_names(people.select("identity", "name", "club", "first"))
        return people.with_columns(
            pl.col("identity").replace_strict(pages, return_dtype=pl.Utf8).alias("page")
        ).sort(pl.col("name").str.to_lowercase(), "club", "page")

    def views(
        self, folders: dict[str, str], people: pl.DataFrame | None = None
    ) -> Iterable[tuple[dict[str, Any], dict[str, Any]]]:
        """Each player (a row of :meth:`players`; of ``people`` when given) with the context of
        its page: its table's rows as HTML (:func:`row_html`, made for all the pages at once,
        in columns) and its chart (:func:`chart`)."""
        people = self.players() if people is None else people
        if not people.height:
            return
        wanted = pl.col("identity").is_in(people["identity"].implode())
        # the partners of their lines: the other players of the same standings
        mine = self.lines.filter(wanted).select(LINE).unique()
        lines = (
            with_partners(self.lines.join(mine, on=list(LINE), how="semi", nulls_equal=True))
            .filter(wanted)
            .with_columns(
                pl.col("identity")
                .replace_strict(
                    dict(zip(people["identity"], people["page"], strict=True)), return_dtype=pl.Utf8
                )
                .alias("page")
            )
            .sort(["date", "event_id", "scope", "session"], descending=[False, False, True, False])
        )
        session = pl.col("scope") == "session"
        pages = (
            self._shown(lines, folders)
            .group_by("page", maintain_order=True)
            .agg(
                pl.col("__html").str.join("").alias("rows"),
                pl.col("date").filter(session).alias("dates"),
                pl.col("percentage_display").filter(session).alias("pcts"),
                pl.col("__pct").filter(session).alias("texts"),
                escaped(pl.concat_str("date", pl.lit(": "), "__pct", pl.lit(" %")))
                .filter(session)
                .alias("titles"),
            )
        )
        by_page = {r[0]: r[1:] for r in pages.iter_rows()}
        for person in people.to_dicts():
            rows, dates, pcts, texts, titles = by_page[person["page"]]
            points = [
                {"date": d, "pct": v, "pct_text": t, "title": h}
                for d, v, t, h in zip(dates, pcts, texts, titles, strict=True)
            ]
            yield (
                person,
                {
                    "name": person["name"],
                    "club": person["club"],
                    "rows": Markup(rows),
                    "chart": chart(points),
                    "undrawn": sum(1 for v in pcts if v is None),
                    # the sessions it lists (its lines of session scope)
                    "sessions": len(points),
                },
            )

    def _shown(self, lines: pl.DataFrame, folders: dict[str, str]) -> pl.DataFrame:
        """``lines`` (in their pages' order) with what a player page shows of each: its row
        (``__html``, :func:`row_html`), its percentage as printed (``__pct``, for the chart's
        dots) and its date (``""`` when it has none). Each line's title, link, place and
        figures are worked out in columns; what a function of the site says — an event's
        folder, a scorecard's name, a place's text, a profile's decimals, a figure's text
        (:func:`~.rows.figures`) — is asked once per distinct value."""
        for name, dtype in _OPTIONAL.items():
            if name not in lines.columns:
                lines = lines.with_columns(pl.lit(None, dtype).alias(name))
        session_type = lines.schema["session"]
        events = lines["event_id"].unique().to_list()
        # each event's folder, its first session's title (an event total's), whether it has
        # several sessions; each published session's title
        ev = pl.DataFrame(
            {
                "event_id": events,
                "__folder": [folders.get(e) or slug(e) for e in events],
                "__first": [str(self.first[e].get("name") or e) for e in events],
                "__several": [self.per_event.get(e, 1) > 1 for e in events],
            },
            schema={"event_id": pl.Utf8, "__folder": pl.Utf8, "__first": pl.Utf8,
                    "__several": pl.Boolean},
        )  # fmt: skip
        titles = pl.DataFrame(
            [(e, n, str(s.get("name") or e)) for (e, n), s in self.sessions.items()],
            schema={"event_id": pl.Utf8, "session": session_type, "__title": pl.Utf8},
            orient="row",
        )
        # a scorecard's name: the session's own where two of its contestants or sections
        # share a file-name form (:func:`shared_forms`, found by the direction as the line
        # gives it, an empty one as none), else :func:`~.common.card_name`
        lines = lines.with_columns(
            pl.when(pl.col("direction") == "").then(None).otherwise(pl.col("direction"))
            .alias("__dir")
        )  # fmt: skip
        on_key = ["section", "contestant", "__dir"]
        keys = lines.filter(pl.col("scope") == "session").select(on_key).unique()
        cards = keys.with_columns(
            pl.Series("__card", [card_name(*k) for k in keys.rows()], dtype=pl.Utf8)
        )
        own = pl.DataFrame(
            [
                (e, n, *key, name)
                for (e, n), names in self.cards.items()
                for key, name in names.items()
            ],
            schema={"event_id": pl.Utf8, "session": session_type,
                    "section": lines.schema["section"], "contestant": lines.schema["contestant"],
                    "__dir": lines.schema["__dir"], "__own": pl.Utf8},
            orient="row",
        )  # fmt: skip
        # each profile's decimals and shared-place style
        profiles = lines["profile"].unique().to_list()
        decimals = [Decimals.of(p) for p in profiles]
        dec = pl.DataFrame(
            {
                "profile": profiles,
                "__pct_places": [d.pct for d in decimals],
                "__total_places": [d.total for d in decimals],
                "__tied_place": [d.tied_place for d in decimals],
            },
            schema={"profile": pl.Utf8, "__pct_places": pl.Int64, "__total_places": pl.Int64,
                    "__tied_place": pl.Utf8},
        )  # fmt: skip
        lines = (
            lines.join(ev, on="event_id", how="left", maintain_order="left")
            .join(titles, on=["event_id", "session"], how="left", maintain_order="left")
            .join(cards, on=on_key, how="left", nulls_equal=True, maintain_order="left")
            .join(own, on=["event_id", "session", *on_key], how="left", nulls_equal=True,
                  maintain_order="left")
            .join(dec, on="profile", how="left", nulls_equal=True, maintain_order="left")
        )  # fmt: skip
        # a place as the profile prints it (:func:`~.explain.place_text`)
        on_place = ["rank", "tied", "sanction", "__tied_place", "span"]
        places = lines.select(on_place).unique()
        places = places.with_columns(
            pl.Series(
                "__place",
                [
                    place_text(rank, bool(tied), sanction, style, span or 1)
                    for rank, tied, sanction, style, span in places.rows()
                ],
                dtype=pl.Utf8,
            )
        )
        lines = lines.join(places, on=on_place, how="left", nulls_equal=True,
                           maintain_order="left")  # fmt: skip
        lines = lines.with_columns(
            figures(lines["percentage_display"], lines["__pct_places"]).alias("__pct"),
            figures(lines["score_display"], lines["__total_places"]).alias("__total"),
            pl.col("date").fill_null(""),
        )
        return lines.with_columns(row_html().alias("__html"))

    def render(self, site: SitePages) -> tuple[int, int]:
        """Write every player page whose content changed (the others kept), the index page and
        the JSON index (each file only when its bytes changed); how many player pages were
        rendered and how many kept."""
        index = []
        rendered = kept = 0
        people = self.players()
        # a player all of whose lines are of events kept as they are (their key unchanged, so
        # their titles, folders, places and figures too) keeps its page without its view
        # being made; the others are made, and written when their content changed
        still = set()
        if people.height and site.kept_events:
            page_of = dict(zip(people["identity"], people["page"], strict=True))
            untouched = (
                self.lines.group_by("identity")
                .agg(pl.col("event_id").is_in(sorted(site.kept_events)).all().alias("kept"))
                .filter(pl.col("kept"))["identity"]
                .to_list()
            )
            for identity in untouched:
                page = page_of[identity]
                if site.keep(f"player\x1f{PLAYERS_DIR}/{page}.html", None):
                    still.add(page)
            kept += len(still)
        made = people.filter(~pl.col("page").is_in(sorted(still)))
        for i, (person, ctx) in enumerate(self.views(site.folders, made), start=1):
            if progress.every(200, i, made.height):
                progress.tick("player pages", i, made.height)
            rel = f"{PLAYERS_DIR}/{person['page']}.html"
            key = f"player\x1f{rel}"
            made_from = digest(ctx)
            if site.keep(key, made_from):
                kept += 1
            else:
                first = site.page_count()
                site.write(rel, "player.html.j2", title=ctx["name"], **ctx)
                site.record(key, made_from, first)
                rendered += 1
        index = [
            {
                "name": person["name"],
                "club": person["club"],
                "href": f"{person['page']}.html",
                "sessions": int(person["sessions"]),
            }
            for person in people.to_dicts()
        ]
        text = json.dumps(
            {"players": index}, ensure_ascii=False, sort_keys=True, separators=(",", ":")
        )
        site.write_file(f"{PLAYERS_DIR}/index.json", (text + "\n").encode("utf-8"))
        site.write(
            f"{PLAYERS_DIR}/index.html",
            "players.html.j2",
            title="Players",
            players=index,
            items=Markup(people.select(index_item().str.join("")).item() if people.height else ""),
        )
        return rendered, kept
