"""Team events on the results site: match results, the VP table and the knockout bracket.

Read from the ``matches`` table of the IMP forms (one row per match per session; a knockout
match over several sessions has one row per segment):

* **match results** of a session: home and away team, IMPs won on the boards, net IMPs
  (penalties deducted, Law 86 / 90), carry-over in a knockout, victory points, the winner;
* **the VP table** of a round-robin or Swiss event: each team's VPs round by round against its
  opponent, and its total;
* **the bracket** of a knockout: each round's matches with their totals over all segments
  (carry-over plus, per segment, the IMPs won less the team's IMP penalties) and the winner
  of the last segment.

Figures are shown as stored (two decimals); nothing is recomputed here.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from pipelines.split import parts_by


def _f(value: Any, decimals: int = 2) -> str:
    """A figure to ``decimals`` places with a typographic minus; empty when missing."""
    return "" if value is None else f"{float(value):.{decimals}f}".replace("-", "\u2212")


def _section(m: dict[str, Any]) -> str:
    """A match's (or a team's) section, ``""`` when it has none."""
    return m.get("section") or ""


def match_rows(matches: pl.DataFrame, names: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    """The matches of one session, in round and match order, ready to print; ``names``: the
    teams' names by ``(section, team)`` (team 1 of section A is not team 1 of section B)."""
    out = []
    for m in matches.sort(["round", "match_id"], nulls_last=True).to_dicts():
        out.append(
            {
                "round": m.get("round") or "",
                "home": m["home"],
                "away": m["away"],
                "home_names": names.get((_section(m), m["home"]), ""),
                "away_names": names.get((_section(m), m["away"]), ""),
                "imps": f"{_f(m.get('home_imps'))} – {_f(m.get('away_imps'))}",
                "net": f"{_f(m.get('home_net'))} – {_f(m.get('away_net'))}",
                "penalties": (
                    f"{_f(m.get('home_penalties') or 0)} – {_f(m.get('away_penalties') or 0)}"
                    if m.get("home_penalties") or m.get("away_penalties")
                    else ""
                ),
                "carry": (
                    f"{_f(m.get('home_carry_over'))} – {_f(m.get('away_carry_over'))}"
                    if m.get("home_carry_over") is not None
                    else ""
                ),
                "vp": (
                    f"{_f(m.get('home_vp'))} – {_f(m.get('away_vp'))}"
                    if m.get("home_vp") is not None
                    else ""
                ),
                "winner": m.get("winner") or "level",
            }
        )
    return out


def vp_table(
    matches: pl.DataFrame,
    names: dict[tuple[str, str], str],
    standings: pl.DataFrame | None = None,
) -> dict[str, Any] | None:
    """Teams with each round's VPs and opponent, their VP penalties and their total; ``None``
    without VPs. A team is its section and number: the teams of each section are listed
    together, each labelled with its section when there are several (``names`` by
    ``(section, team)``).

    The total is the standing's: the matches' VPs less the team's VP penalties (Law 90, the
    ``vp_penalties`` of its event standing in ``standings``), and the teams are in the
    ranking's order (its ``rank``, ties broken as the ranking breaks them, then by number) —
    the table and the event ranking never disagree. Without ``standings``: by total VPs."""
    if not matches.height or matches["home_vp"].is_null().all():
        return None
    if "section" not in matches.columns:
        matches = matches.with_columns(pl.lit(None, pl.Utf8).alias("section"))
    matches = matches.with_columns(pl.col("section").fill_null(""))
    several = matches["section"].n_unique() > 1
    sides = [  # each match once from the home team's side, once from the away team's
        matches.select(
            "session",
            "round",
            "section",
            pl.col(team).alias("team"),
            pl.col(opponent).alias("opponent"),
            pl.col(f"{team}_vp").alias("vp"),
        )
        for team, opponent in (("home", "away"), ("away", "home"))
    ]
    order = (
        matches.select("session", "round")
        .unique()
        .sort(["session", "round"], nulls_last=True)
        .with_row_index("slot", offset=1)
    )
    long = pl.concat(sides).join(order, on=["session", "round"], nulls_equal=True)
    slots = sorted(long["slot"].unique().to_list())
    totals = long.group_by("section", "team").agg(pl.col("vp").sum().alias("total"))
    ranked = _event_ranks(standings)
    totals = (
        totals.join(ranked, on=["section", "team"], how="left")
        .with_columns(
            pl.col("penalty").fill_null(0.0),
            (pl.col("total") - pl.col("penalty").fill_null(0.0)).alias("total"),
        )
        .sort(
            ["section", "rank", "total", "team"],
            descending=[False, False, True, False],
            nulls_last=True,
        )
    )
    penalised = bool((totals["penalty"] != 0).any())
    cells = {(r["section"], r["team"], r["slot"]): r for r in long.to_dicts()}
    rows = []
    for t in totals.to_dicts():
        mine = [cells.get((t["section"], t["team"], s)) for s in slots]
        rows.append(
            {
                "team": f"{t['team']}, section {t['section']}" if several else t["team"],
                "names": names.get((t["section"], t["team"]), ""),
                "cells": [f"{_f(c['vp'])} v {c['opponent']}" if c else "" for c in mine],
                "penalty": _f(-t["penalty"]) if t["penalty"] else "",
                "total": _f(t["total"]),
            }
        )
    return {"rounds": [f"Round {s}" for s in slots], "rows": rows, "penalties": penalised}


def _event_ranks(standings: pl.DataFrame | None) -> pl.DataFrame:
    """Each team's event rank and VP penalties (``section, team, rank, penalty``) from its
    event standing (the newest version), empty without ``standings``."""
    schema = {"section": pl.Utf8, "team": pl.Utf8, "rank": pl.Int64, "penalty": pl.Float64}
    if standings is None or not standings.height:
        return pl.DataFrame(schema=schema)
    st = standings
    if "scope" in st.columns:
        st = st.filter(pl.col("scope") == "event")
    penalty = (
        pl.col("vp_penalties").cast(pl.Float64).fill_null(0.0)
        if "vp_penalties" in st.columns
        else pl.lit(0.0)
    )
    return st.select(
        pl.col("section").fill_null("").cast(pl.Utf8),
        pl.col("contestant").cast(pl.Utf8).alias("team"),
        pl.col("rank").cast(pl.Int64),
        penalty.alias("penalty"),
    ).unique(["section", "team"], keep="first", maintain_order=True)


def _scored(team: str) -> pl.Expr:
    """A team's score on a knockout segment as a scoreboard shows it: the IMPs it won on the
    boards less its IMP penalties (Law 90, in full), so the two totals differ by the match
    margin and the team ahead is the winner."""
    return pl.col(f"{team}_imps") - pl.col(f"{team}_penalties").fill_null(0)


def bracket(matches: pl.DataFrame, names: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    """The knockout rounds, each with its matches — a match is its section, round and two
    teams, played over one segment (session) or several — with the teams' IMPs over all its
    segments (less their IMP penalties, plus a carry-over brought into the first) and the
    winner after the last (``names`` by ``(section, team)``)."""
    ko = matches.filter(pl.col("stage") == "knockout") if "stage" in matches.columns else matches
    if not ko.height:
        return []
    for c in ("home_penalties", "away_penalties"):
        if c not in ko.columns:
            ko = ko.with_columns(pl.lit(0.0).alias(c))
    if "section" not in ko.columns:
        ko = ko.with_columns(pl.lit(None, pl.Utf8).alias("section"))
    # a match is its section, round and two teams, over all its segments (sessions; each
    # segment has its own match_id, and its home team is the one seated NS at its first table)
    lo, hi = pl.min_horizontal("home", "away"), pl.max_horizontal("home", "away")
    home_is_lo = pl.col("home") == pl.col("__lo")
    per = (
        ko.with_columns(lo.alias("__lo"), hi.alias("__hi"))
        .with_columns(
            pl.when(home_is_lo).then(_scored("home")).otherwise(_scored("away")).alias("__lo_s"),
            pl.when(home_is_lo).then(_scored("away")).otherwise(_scored("home")).alias("__hi_s"),
        )
        .sort("session")
        .group_by("section", "round", "__lo", "__hi", maintain_order=True)
        .agg(
            pl.col("match_id").first(),
            pl.col("home").first(),
            pl.col("away").first(),
            # the first segment's carry-over (brought in), then every segment's IMPs
            pl.col("home_carry_over").fill_null(0).first().alias("__home_in"),
            pl.col("away_carry_over").fill_null(0).first().alias("__away_in"),
            pl.col("__lo_s").sum(),
            pl.col("__hi_s").sum(),
            pl.col("winner").last(),
            pl.len().alias("segments"),
        )
        .with_columns(
            (
                pl.col("__home_in")
                + pl.when(pl.col("home") == pl.col("__lo")).then("__lo_s").otherwise("__hi_s")
            ).alias("home_total"),
            (
                pl.col("__away_in")
                + pl.when(pl.col("home") == pl.col("__lo")).then("__hi_s").otherwise("__lo_s")
            ).alias("away_total"),
        )
        .drop("__lo", "__hi", "__lo_s", "__hi_s", "__home_in", "__away_in")
        .sort(["round", "match_id"])
    )
    rounds = []
    for (rnd,), grp in sorted(parts_by(per, ["round"]).items()):
        rounds.append(
            {
                "round": rnd,
                "matches": [
                    {
                        **m,
                        "home_names": names.get((_section(m), m["home"]), ""),
                        "away_names": names.get((_section(m), m["away"]), ""),
                        "home_total": _f(m["home_total"]),
                        "away_total": _f(m["away_total"]),
                    }
                    for m in grp.to_dicts()
                ],
            }
        )
    return rounds
