"""Shared places and broken ties in words, next to the place (the ranking pages, scorecards).

Contestants level on their ranking figure — the exact percentage at matchpoints (Law 78A), the
IMPs or the VPs at IMP forms (Law 78B; teams) — share the place unless the event's profile
breaks the tie (``ranking.tiebreak`` for pairs and individuals; ``imps.team_tiebreak`` for
teams). Each contestant of such a level set gets a note saying which it is:

* shared: ``shared with 4 and 9: equal percentages`` (and, where the profile's rule could not
  separate them either, ``, level on the head-to-head matchpoints too``);
* broken: ``ahead of 9 on the head-to-head matchpoints (equal percentages)``,
  ``behind 4 on the IMP quotient (equal VPs)``, ``ahead of K3 on the VPs of their match``.

:func:`tie_rule` is the sentence under a ranking naming the rule and the profile setting
that breaks ties (or that none does). The figures compared are the exact ones the standings
rank by (``score_num/score_den``, over ``top_num/top_den`` for a percentage), so two
contestants whose shown figures merely round alike are not called level.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import polars as pl

from pipelines.profiles import Profile
from pipelines.publish.common import contestant_label, load_profile

#: What the rule of each profile setting compares, in words.
PAIR_RULES: dict[str, str] = {
    "head_to_head": "the head-to-head matchpoints",
}
TEAM_RULES: dict[str, str] = {
    "imp_quotient": "the IMP quotient",
    "head_to_head": "the VPs of their match, then the IMP quotient",
}


def _label(r: dict[str, Any]) -> str:
    """The contestant as the ranking's number column shows it (``7``, ``7 NS``)."""
    return contestant_label(str(r["contestant"]), r.get("direction") or None)


def _listed(labels: list[str]) -> str:
    """``4``, ``4 and 9``, ``4, 9 and 12``."""
    if len(labels) <= 1:
        return "".join(labels)
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def level_figure(r: dict[str, Any]) -> Fraction | None:
    """The exact figure ``r`` (a standings row) is ranked by: its percentage where it has a
    top (a contestant whose boards all had a single result stands at 50 %), else its score
    (IMPs, VPs); ``None`` for a contestant without a place (Law 91)."""
    if r.get("rank") is None or r.get("score_num") is None or not r.get("score_den"):
        return None
    score = Fraction(int(r["score_num"]), int(r["score_den"]))
    if r.get("top_num") is not None and r.get("top_den"):
        top = Fraction(int(r["top_num"]), int(r["top_den"]))
        return score / top if top else Fraction(1, 2)
    return score


def what_is_level(r: dict[str, Any]) -> str:
    """``percentages``, ``IMPs`` or ``VPs``: what the level contestants share."""
    if r.get("top_num") is not None:
        return "percentages"
    unit = r.get("unit") or "MP"
    return f"{unit}s" if unit in ("IMP", "VP") else "score"


def _team_rule(prof: Profile) -> str:
    return prof.imps.team_tiebreak


def rule_of(prof: Profile, teams: bool) -> tuple[str, str | None]:
    """The profile setting that breaks ties in this ranking and the rule in words (``None``:
    ties are not broken)."""
    if teams:
        setting = _team_rule(prof)
        return f"imps.team_tiebreak = {setting}", TEAM_RULES.get(setting)
    return f"ranking.tiebreak = {prof.ranking.tiebreak}", PAIR_RULES.get(prof.ranking.tiebreak)


def tie_rule(profile: str | None, rows: list[dict[str, Any]]) -> str | None:
    """The sentence under a ranking on how its ties are placed, or ``None`` when no two of
    ``rows`` (one ranking's standings rows) are level."""
    if not rows or not any(len(s) > 1 for s in _level_sets(rows)):
        return None
    prof = load_profile(profile)
    what = what_is_level(rows[0])
    setting, rule = rule_of(prof, _teams(rows))
    if rule is None:
        return (
            f"Contestants with equal {what} share the place: ties are not broken "
            f"(profile {prof.name}, {setting})."
        )
    return (
        f"Contestants with equal {what} are placed by {rule} (profile {prof.name}, "
        f"{setting}); those still level share the place."
    )


def _teams(rows: list[dict[str, Any]]) -> bool:
    """A teams ranking: VPs (a league, a Swiss) or a team event's IMPs (a knockout, whose
    standings are in IMPs and whose ties ``imps.team_tiebreak`` breaks, as at VPs)."""
    return any((r.get("unit") or "") == "VP" or (r.get("movement") or "") == "teams" for r in rows)


def _level_sets(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    sets: dict[Fraction, list[dict[str, Any]]] = {}
    for r in rows:
        f = level_figure(r)
        if f is not None:
            sets.setdefault(f, []).append(r)
    return list(sets.values())


def _match_vps(matches: pl.DataFrame | None, a: str, b: str) -> tuple[float, float] | None:
    """The VPs ``a`` and ``b`` scored in their matches against each other (``None``: they
    did not meet, or no VPs)."""
    if matches is None or not matches.height or "home_vp" not in matches.columns:
        return None
    mine = theirs = 0.0
    met = False
    for m in matches.filter(
        ((pl.col("home") == a) & (pl.col("away") == b))
        | ((pl.col("home") == b) & (pl.col("away") == a))
    ).iter_rows(named=True):
        if m["home_vp"] is None:
            continue
        met = True
        home_is_a = m["home"] == a
        mine += float(m["home_vp"] if home_is_a else m["away_vp"] or 0)
        theirs += float(m["away_vp"] if home_is_a else m["home_vp"] or 0)
    return (mine, theirs) if met else None


def tie_notes(
    rows: list[dict[str, Any]], profile: str | None, matches: pl.DataFrame | None = None
) -> dict[tuple[str, str], str]:
    """The note of each contestant of ``rows`` (one ranking: a section, a direction) that is
    level with another, keyed by ``(contestant, direction or "")`` (see the module docstring);
    ``matches``: the team matches of the ranking, to say when a head-to-head match decided."""
    notes: dict[tuple[str, str], str] = {}
    prof = load_profile(profile) if rows else None
    teams = _teams(rows)
    for level in _level_sets(rows):
        if len(level) < 2 or prof is None:
            continue
        what = what_is_level(level[0])
        _, rule = rule_of(prof, teams)
        for r in level:
            key = (str(r["contestant"]), r.get("direction") or "")
            same = [_label(o) for o in level if o is not r and o["rank"] == r["rank"]]
            above = [_label(o) for o in level if o["rank"] < r["rank"]]
            below = [_label(o) for o in level if o["rank"] > r["rank"]]
            if not above and not below:
                text = f"shared with {_listed(same)}: equal {what}"
                if rule is not None:
                    text += f", level on {rule} too"
                notes[key] = text
                continue
            how = rule or "the tie-break"
            if teams and len(level) == 2 and _team_rule(prof) == "head_to_head":
                other = next(o for o in level if o is not r)
                vps = _match_vps(matches, str(r["contestant"]), str(other["contestant"]))
                how = (
                    "the VPs of their match"
                    if vps is not None and vps[0] != vps[1]
                    else "the IMP quotient"
                )
            parts = []
            if above:
                parts.append(f"behind {_listed(above)}")
            if below:
                parts.append(f"ahead of {_listed(below)}")
            text = f"{', '.join(parts)} on {how} (equal {what})"
            if teams and str(r.get("tiebreak") or "").startswith("IMP quotient"):
                text += f"; {r['tiebreak']}"
            if same:
                text += f"; shares the place with {_listed(same)}"
            notes[key] = text
    return notes
