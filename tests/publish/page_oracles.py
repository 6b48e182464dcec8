"""The site's traveller, scorecard and player pages as they were made row by row: the oracle
the pages made in columns (:mod:`pipelines.publish.rows`, :mod:`pipelines.publish.players`)
are compared with, byte for byte.

:class:`RowByRowSite` is the site with its former ``_session`` and ``_cards``: every
traveller line and scorecard line a Python dict worked out on its own (its words, contract
shown, score, cells and links) and printed by the Jinja loops of the former
``traveller.html.j2`` and ``scorecard.html.j2`` (:data:`TEMPLATES`); its player pages are
:class:`RowByRowPlayerPages`: each line of a player a dict (:func:`line_view`), each dot of
its chart a dict (:func:`chart`), printed by the loops of the former ``player.html.j2`` and
``_chart.html.j2``. Frozen on purpose: it is not to be brought in line with the site's code,
it is what that code must give.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import polars as pl
from jinja2 import ChoiceLoader, FileSystemLoader

from pipelines.publish.common import (
    Decimals,
    board_label,
    board_name,
    card_name,
    card_names,
    contestant_label,
    fmt,
    penalty_text,
    rel,
    section_dirs,
    slug,
)
from pipelines.publish.explain import MINUS, contract_result, explain, laws_text, place_text
from pipelines.publish.hands import deal_view
from pipelines.publish.lines import table_score
from pipelines.publish.players import (
    _BOTTOM,
    _LEFT,
    _RIGHT,
    _TOP,
    CHART_H,
    CHART_W,
    DATE_GAP,
    LINE,
    PlayerPages,
    short_date,
    with_partners,
)
from pipelines.publish.site import (
    SESSION_KEYS,
    Site,
    sides,
    status_text,
    with_public_note,
    with_span,
)
from pipelines.publish.teams import match_rows

#: The former templates of the traveller and scorecard pages, with their row loops.
TEMPLATES = Path(__file__).resolve().parent / "row_by_row_templates"


def _score_cells(row: dict[str, Any]) -> tuple[str, str]:
    """The NS and EW score cells of a traveller line: the positive side shows the score."""
    if row.get("kind") == "artificial":
        return (f"A{row.get('ns_art') or ''}", f"A{row.get('ew_art') or ''}")
    if row.get("kind") == "not_played":
        return ("NP", "NP")
    s = row.get("ns_score")
    if s is None:
        return ("adj.", "adj.")
    if s > 0:
        return (str(s), "")
    if s < 0:
        return ("", str(-s))
    return ("0", "")


def shown_contract(row: dict[str, Any]) -> dict[str, Any]:
    """The contract, declarer and tricks a traveller line shows: the table's result, or the
    result a ruling put in its place when that is one contract result for both sides (an
    assigned score, Law 12C1(b), or a score correction, Law 79C); the note says what was
    played."""
    ns, ew = row.get("effective_ns_result"), row.get("effective_ew_result")
    kind = row.get("adjustment")
    if kind in ("assigned", "score_correction", "director_error", "artificial") and (
        not ew or (ns or "").strip() == ew.strip()
    ):
        parsed = contract_result(ns)
        if parsed is not None:
            contract, declarer, tricks = parsed
            return {"contract": contract, "declarer": declarer or None, "tricks": tricks}
    return {k: row.get(k) for k in ("contract", "declarer", "tricks")}


def result_cell(row: dict[str, Any]) -> str:
    """Tricks relative to the contract: ``=``, ``+1``, ``−2``; empty without a contract."""
    contract, tricks = row.get("contract"), row.get("tricks")
    if not contract or contract == "PASS" or tricks is None:
        return ""
    m = re.match(r"^([1-7])", contract)
    if not m:
        return str(tricks)
    rel = int(tricks) - int(m.group(1)) - 6
    return "=" if rel == 0 else f"+{rel}" if rel > 0 else f"{MINUS}{-rel}"


def by_ns_score(row: dict[str, Any]) -> tuple[bool, int]:
    """A traveller's order: the best NS score first; lines without a score (artificial, not
    played) after them, as they were."""
    score = row.get("ns_score")
    return (score is None, -(score or 0))


def _order(key: tuple[str, int, int]) -> tuple[str, int, int]:
    """Travellers in play order: section, round (where re-dealt), board number."""
    section, board, deal_round = key
    return section, deal_round, board


def chart(points: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A player's chart as it was made: every dot a dict (``x``, ``y``, ``label``)."""
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
    xs = [round(_LEFT + (width * (i + 0.5) / n), 1) for i in range(n)]
    dots = [
        {"x": x, "y": y(p["pct"]), "label": f"{p['date']}: {p['pct_text']} %"}
        for x, p in zip(xs, pts, strict=True)
    ]
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
        "dates": [{"x": xs[i], "label": short_date(pts[i]["date"])} for i in firsts],
        "date_y": _TOP + height + 18,
        "sessions": n,
    }


def line_view(r: dict[str, Any], dec: Decimals, href: str, title: str) -> dict[str, Any]:
    """One row of a player page as it was made: what the table shows of a standing."""
    span = r.get("span") or 1
    place = place_text(r["rank"], bool(r["tied"]), r.get("sanction"), dec.tied_place, span)
    pct = fmt(r.get("percentage_display"), dec.pct)
    unit = r.get("unit") or "MP"
    return {
        "date": r["date"] or "",
        "event": title,
        "scope": r["scope"],
        "with": r["partners"],
        "place": place,
        "of": r.get("field"),
        "pct": pct,
        "score": "" if pct else f"{fmt(r.get('score_display'), dec.total)} {unit}",
        "href": href,
    }


class RowByRowPlayerPages(PlayerPages):
    """The player pages with their former :meth:`views`: each line and dot a dict."""

    def views(
        self, folders: dict[str, str], people: pl.DataFrame | None = None
    ) -> Iterable[tuple[dict[str, Any], dict[str, Any]]]:
        people = self.players() if people is None else people
        if not people.height:
            return
        wanted = pl.col("identity").is_in(people["identity"].implode())
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
        )
        groups = lines.sort(
            ["date", "event_id", "scope", "session"], descending=[False, False, True, False]
        ).partition_by("page", as_dict=True)
        for person in people.to_dicts():
            rows = []
            points = []
            for r in groups[(person["page"],)].to_dicts():
                dec = Decimals.of(r.get("profile"))
                folder = folders.get(r["event_id"]) or slug(r["event_id"])
                several = self.per_event.get(r["event_id"], 1) > 1
                s = self.sessions.get((r["event_id"], r["session"])) or self.first[r["event_id"]]
                title = str(s.get("name") or r["event_id"])
                if r["scope"] == "session":
                    key = (r["section"], r["contestant"], r.get("direction") or None)
                    card = (self.cards.get((r["event_id"], r["session"])) or {}).get(key)
                    href = f"../events/{folder}/s{r['session']}/{card or card_name(*key)}"
                    if several:
                        title = f"{title}, session {r['session']}"
                else:
                    href = f"../events/{folder}/index.html"
                    title = f"{title}, event total"
                view = line_view(r, dec, href, title)
                rows.append(view)
                if r["scope"] == "session":
                    pct = r.get("percentage_display")
                    points.append({"date": view["date"], "pct": pct, "pct_text": view["pct"]})
            yield (
                person,
                {
                    "name": person["name"],
                    "club": person["club"],
                    "rows": rows,
                    "chart": chart(points),
                    "undrawn": sum(1 for p in points if p["pct"] is None),
                    "sessions": len(points),
                },
            )


class RowByRowSite(Site):
    """The site, its sessions' and players' pages made row by row as before (see the
    module)."""

    player_pages = RowByRowPlayerPages

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.env.loader = ChoiceLoader([FileSystemLoader(TEMPLATES), self.env.loader])
        self.env.cache = {}

    def _session(self, s: dict[str, Any]) -> None:
        event_id, n = s["event_id"], s["session"]
        base = f"{self._event_dir(event_id)}/s{n}"
        dec = Decimals.of(s.get("profile"))
        st = self._of("standings", SESSION_KEYS, event_id, "session", n)
        res = self._of("results", ("event_id", "session"), event_id, n)
        if "deal_round" not in res.columns:
            res = res.with_columns(pl.lit(0, pl.Int32).alias("deal_round"))
        res = res.with_columns(pl.col("deal_round").fill_null(0))
        deal = ["section", "deal_round", "board"]  # a board (its round where re-dealt)
        versions = res.group_by(deal).agg(
            pl.col("board_version").fill_null("A").n_unique().alias("versions")
        )
        # each line's words, contract shown and score are worked out once, here, and the two
        # sides' scorecards take them by the line's number (``__line``)
        res = res.join(versions, on=deal, how="left").with_row_index("__line")
        lines = res.to_dicts()
        for r in lines:
            r["note"] = with_public_note(explain(r, r["versions"]), r)
            r.update(shown_contract(r))
            r["ns_score"] = table_score(r)
            r["ns_cell"], r["ew_cell"] = _score_cells(r)
            r["result"] = result_cell(r)
            r["imp_ns"] = r.get("ns_imps_display", r.get("ns_imps"))
            r["imp_ew"] = r.get("ew_imps_display", r.get("ew_imps"))
        contestants = st.select("section", "contestant", "direction").rows()
        cards = card_names(contestants)  # two ids of one form: two scorecards
        dirs = section_dirs(sec for sec, _, _ in contestants)  # two sections' names: two folders
        rankings = self._rankings(st, dec, link_dir="", cards=cards)
        matches = self._matches(event_id, n)
        changes = self._changes(self._of("changes", SESSION_KEYS, event_id, "session", n), st, dec)
        penalties = [
            {**p, "laws_text": laws_text(p.get("laws"))}
            for p in self._of("penalties", ("event_id", "session"), event_id, n).to_dicts()
        ]
        boards = sorted({(r["section"], r["board"], r["deal_round"]) for r in lines}, key=_order)
        page = {
            "session": s,
            "event_href": "../index.html",
            "session_href": "index.html",
            "status": status_text(s),
            "dec": dec,
            **self._figures(res),
        }
        self._write(
            f"{base}/index.html",
            "ranking.html.j2",
            title=f"{s.get('name') or event_id}, session {n}",
            agreement=self._agreement(event_id, n, s.get("program")),
            rankings=rankings,
            changes=changes,
            penalties=penalties,
            boards=[
                {"section": sec, "board": board_label(b, d), "href": board_name(sec, b, d, dirs)}
                for sec, b, d in boards
            ],
            sections=len({sec for sec, *_ in boards}),
            matches=match_rows(matches, self._names(st)) if matches is not None else [],
            **page,
        )
        by_board: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
        for r in lines:
            by_board.setdefault((r["section"], r["board"], r["deal_round"]), []).append(r)
        deals = self._deals(event_id, n)
        # a traveller names and links the pairs of its own section: pair 1 NS of section A is
        # not pair 1 NS of section B
        names: dict[Any, dict[tuple[str, str | None], str]] = {}
        for r in st.select("section", "contestant", "direction", "names").to_dicts():
            names.setdefault(r["section"], {})[(r["contestant"], r["direction"] or None)] = (
                r.get("names") or ""
            )
        cards_from: dict[Any, dict] = {}  # the scorecard links, per section of board pages
        for i, (sec, b, d) in enumerate(boards):
            path = f"{base}/{board_name(sec, b, d, dirs)}"
            prev = rel(f"{base}/{board_name(*boards[i - 1], dirs)}", path) if i > 0 else None
            nxt = (
                rel(f"{base}/{board_name(*boards[i + 1], dirs)}", path)
                if i + 1 < len(boards)
                else None
            )
            rows = sorted(by_board[(sec, b, d)], key=by_ns_score)
            of_round = f" of round {d}" if d else ""
            # each line's two pairs: their scorecards' links and their names, in a Mitchell
            # by direction (pair 1 NS is not pair 1 EW)
            links = self._card_links(cards_from, base, path, sec, cards)
            named = names.get(sec, {})
            for r in rows:
                ns, ew = ("NS", "EW") if r["movement"] == "mitchell" else (None, None)
                r["ns_card"], r["ew_card"] = (
                    links.get((r["ns_pair"], ns)),
                    links.get((r["ew_pair"], ew)),
                )
                r["ns_names"], r["ew_names"] = (
                    named.get((r["ns_pair"], ns)),
                    named.get((r["ew_pair"], ew)),
                )
            self._write(
                path,
                "traveller.html.j2",
                title=f"Board {b}{of_round}" + (f", section {sec}" if len(boards) and sec else ""),
                board=f"{b}{of_round}",
                section=sec,
                rows=rows,
                deal=deal_view(deals.get((sec, b)) or deals.get((None, b))),
                top=fmt(rows[0].get("top_display"), dec.mp),
                prev=prev,
                next=nxt,
                **self._up(page, base, path),
            )
        ties = {
            (ranking["section"], row["contestant"]): row["tie"]
            for ranking in rankings
            for row in ranking["rows"]
            if row["tie"]
        }
        self._cards(base, st, res, dec, page, ties, lines, cards, dirs)

    @staticmethod
    def _card_links(
        cache: dict[Any, dict],
        base: str,
        path: str,
        section: Any,
        cards: dict[tuple[Any, Any, Any], str],
    ) -> dict[tuple[str, str | None], str]:
        """The link from the page ``path``, a traveller of ``section``, to the scorecard of
        each contestant of that section (the same for every board of the section, whose pages
        share a folder: made once per section)."""
        if section not in cache:
            cache[section] = {
                (c, d): rel(f"{base}/{card}", path)
                for (sec, c, d), card in cards.items()
                if sec == section
            }
        return cache[section]

    CARD_COLUMNS: tuple[str, ...] = (
        "__line", "section", "who", "who_dir", "against", "side", "board", "deal_round",
        "table", "own_score", "kind", "ns_art", "ew_art", "own_mp", "own_pct", "own_imp",
    )  # fmt: skip

    def _cards(
        self,
        base: str,
        st: pl.DataFrame,
        res: pl.DataFrame,
        dec: Decimals,
        page: dict[str, Any],
        ties: dict[tuple[str, str], str] | None = None,
        travellers: list[dict[str, Any]] | None = None,
        cards: dict[tuple[Any, Any, Any], str] | None = None,
        dirs: dict[Any, str] | None = None,
    ) -> None:
        """Each contestant's scorecard; ``ties``: the note on a shared place or a broken tie
        of each contestant that has one (by section and label, :mod:`.ties`); ``travellers``:
        the traveller lines of ``res`` as :meth:`_session` worked them out (by ``__line``), whose
        words, contract shown and score each scorecard line takes instead of working them out
        again; ``cards``: the scorecards' names (:func:`~.common.card_names`); ``dirs``: the
        sections' folders (:func:`~.common.section_dirs`)."""
        seats = sides(res)
        # a scorecard lists its boards by round and board; a board played at two tables (a
        # team's two rooms) by table, then side: one order, whatever the input's
        order = [c for c in ("deal_round", "board", "table", "side") if c in seats.columns]
        seats = seats.sort(order, nulls_last=True, maintain_order=True)
        # each contestant's seats, in that order: the rows made dicts once and grouped here,
        # not split into one frame per contestant (a frame and its dicts cost per call)
        if travellers is not None:  # the rest of each line is its traveller line's
            seats = seats.select(c for c in self.CARD_COLUMNS if c in seats.columns)
        groups: dict[tuple[Any, Any, Any], list[dict[str, Any]]] = {}
        for x in seats.with_columns(pl.col("who_dir").fill_null("")).to_dicts():
            groups.setdefault((x["section"], x["who"], x["who_dir"]), []).append(x)
        who = "player" if (res["form"] == "individual").any() else "pair"
        names = {
            (section, contestant, direction or ""): their
            for section, contestant, direction, their in st.select(
                "section", "contestant", "direction", "names"
            ).rows()
        }
        #: each board's link from a folder of scorecards (:func:`~.common.rel` reads only the
        #: folder of the page it links from: every scorecard there shares the link)
        hrefs: dict[tuple[Any, Any, Any, str], str] = {}
        for r in with_span(st).to_dicts():
            d = r.get("direction") or ""
            card = (cards or {}).get((r["section"], r["contestant"], d or None)) or card_name(
                r["section"], r["contestant"], d or None, dirs
            )
            rows = groups.get((r["section"], r["contestant"], d))
            lines = []
            if rows is not None:
                for x in rows:  # by round and board (sorted before the split)
                    line = travellers[x["__line"]] if travellers is not None else None
                    if line is not None:
                        x["note"] = line["note"]
                        x.update({k: line[k] for k in ("contract", "declarer", "tricks")})
                        score = line["ns_score"]
                        x["result"] = line["result"]
                    else:
                        x["note"] = with_public_note(explain(x, x.get("versions") or 1), x)
                        x.update(shown_contract(x))
                        score = table_score(x)
                        x["result"] = result_cell(x)
                    if x.get("own_score") is None and score is not None:
                        x["own_score"] = score * (1 if x["side"] == "NS" else -1)
                    if x.get("kind") == "artificial":
                        x["score_cell"] = f"A{x.get('ns_art' if x['side'] == 'NS' else 'ew_art')}"
                    elif x.get("kind") == "not_played":
                        x["score_cell"] = "NP"
                    elif x.get("own_score") is None:
                        x["score_cell"] = "adj."
                    else:
                        x["score_cell"] = str(x["own_score"]).replace("-", MINUS)
                    opponent = ("EW" if x["side"] == "NS" else "NS") if x.get("who_dir") else ""
                    x["against_names"] = names.get((x["section"], x["against"], opponent)) or ""
                    # a link depends on the folder it is made from: one per board and folder
                    to = (x["section"], x["board"], x.get("deal_round"), posixpath.dirname(card))
                    href = hrefs.get(to)
                    if href is None:
                        href = hrefs[to] = rel(
                            f"{base}/{board_name(*to[:3], dirs)}",
                            f"{base}/{card}",
                        )
                    x["board_href"] = href
                    x["board"] = board_label(x["board"], x.get("deal_round"))
                    lines.append(x)
            path = f"{base}/{card}"
            self._write(
                path,
                "scorecard.html.j2",
                title=f"Scorecard of {who} {contestant_label(r['contestant'], d or None)}",
                standing={
                    **r,
                    "label": contestant_label(r["contestant"], d or None),
                    "place": place_text(
                        r["rank"], r["tied"], r.get("sanction"), dec.tied_place, r["span"]
                    ),
                    "score": fmt(r.get("score_display"), dec.total),
                    "pct": fmt(r.get("percentage_display"), dec.pct),
                    "penalty": penalty_text(r, dec.total),
                    "tie": (ties or {}).get(
                        (r["section"], contestant_label(r["contestant"], d or None))
                    ),
                },
                lines=lines,
                **self._up(page, base, path),
            )
