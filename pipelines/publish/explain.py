"""Adjusted scores explained in words, for the traveller and scorecard pages.

A player reading a traveller must see *that* a result was changed and *why*, in the
words of the Laws:

* an assigned score replaces the table result (Law 12C1(b)): "assigned 4S N =, Laws 16B1,
  12C1(b)"; a split score gives each side its own result (Law 12C1(e)): "split score: NS
  4S N =, EW 4S N +1";
* a weighted score (Law 12C1(c)) lists its components: "weighted 60 % 4S N = / 40 % 4S N −1";
* an artificial score (Law 12C2) is a percentage of the top: "average-plus 60 %", and when
  the session-percentage rule of Law 12C2(c) moved a variable average away from 60/50/40
  the percentage it gave: "average-plus 63.2 % (session percentage, Law 12C2(c))";
* a director's error (Law 82C) treats both sides as non-offending;
* a fouled board (Law 87) is scored per version: "fouled board: version B";
* a score correction (Law 79C) names the corrected result; a ruling that let the score
  stand is mentioned too, so the call is visible.

The text is plain (the templates escape it); the figures come from the warehouse as
scored, never recomputed here.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pipelines.laws.vocabulary import PENALTY_KINDS, RulingKind

#: Words for the artificial-score codes of the results files and rulings (Law 12C2).
AVERAGE_WORDS = {"+": "average-plus", "=": "average", "-": "average-minus"}
#: The nominal percentage of each variable code before the session-percentage rule.
NOMINAL = {"+": 60.0, "=": 50.0, "-": 40.0}
MINUS = "\u2212"
_CONTRACT_RESULT = re.compile(r"^([1-7](?:NT|[CDHS])X{0,2})\s+([NESW])\s+(=|[+-]\d{1,2})$")


def contract_result(result: str | None) -> tuple[str, str, int] | None:
    """``4HX E -1`` → ``("4HX", "E", 9)`` (contract, declarer, tricks taken); ``PASS`` →
    ``("PASS", "", 0)``; anything else (a score, a weighted or artificial result) → ``None``."""
    t = " ".join((result or "").strip().upper().split())
    if t == "PASS":
        return ("PASS", "", 0)
    m = _CONTRACT_RESULT.match(t)
    if not m:
        return None
    rel = 0 if m.group(3) == "=" else int(m.group(3))
    return (m.group(1), m.group(2), int(m.group(1)[0]) + 6 + rel)


def played_text(row: dict[str, Any]) -> str:
    """The result as entered at the table: ``4H E −1``, ``PASS``; empty when none."""
    contract, declarer, tricks = row.get("contract"), row.get("declarer"), row.get("tricks")
    if not contract:
        return ""
    if contract == "PASS" or tricks is None:
        return contract
    rel = int(tricks) - int(contract[0]) - 6
    shown = "=" if rel == 0 else f"+{rel}" if rel > 0 else f"{MINUS}{-rel}"
    return f"{contract} {declarer or ''} {shown}".replace("  ", " ")


def laws_text(laws: str | None) -> str:
    """``16B1;12C1(b)`` → ``Laws 16B1, 12C1(b)``; one citation → ``Law 87A``; none → ``""``."""
    parts = [p.strip() for p in (laws or "").split(";") if p.strip()]
    if not parts:
        return ""
    return ("Law " if len(parts) == 1 else "Laws ") + ", ".join(parts)


def result_text(result: str) -> str:
    """A ruling's result for reading: ``4S N -1`` → ``4S N −1`` (typographic minus)."""
    return " ".join(result.split()).replace("-", MINUS)


def _artificial_code(result: str | None) -> str | None:
    """``A+`` → ``+``, ``A`` → ``=``, ``A-`` → ``-``, ``A60`` → ``60``; else ``None``."""
    t = (result or "").strip().upper().replace(" ", "")
    if t in ("A+", "A=", "A", "A-"):
        return {"A+": "+", "A=": "=", "A": "=", "A-": "-"}[t]
    if len(t) == 3 and t[0] == "A" and t[1:].isdigit():
        return t[1:]
    return None


def artificial_phrase(code: str | None, pct: float | None, decimals: int = 1) -> str:
    """One side's artificial score in words (Law 12C2).

    A variable code (``+ = -``) reads "average-plus 60 %"; when the session-percentage rule
    (Law 12C2(c); 2007 Law 88) gave another percentage it reads "average-plus 63.2 %
    (session percentage, Law 12C2(c))". A fixed code reads "average-minus 40 %" for the
    fixed averages 60/50/40, and "55 %" for any other percentage (Law 12C2(d)).
    """
    shown = "" if pct is None or math.isnan(pct) else f"{pct:.{decimals}f}".rstrip("0").rstrip(".")
    if code in AVERAGE_WORDS:
        words = AVERAGE_WORDS[code]
        if pct is not None and not math.isnan(pct) and abs(pct - NOMINAL[code]) > 1e-9:
            return f"{words} {shown} % (session percentage, Law 12C2(c))"
        return f"{words} {shown or int(NOMINAL[code])} %"
    if code in FIXED_WORDS:
        return f"{FIXED_WORDS[code]} {shown or code} %"
    return f"{shown or code} %"


#: At IMPs the fixed codes name the same averages (Law 12C2: +3, 0, −3 IMPs in teams).
FIXED_WORDS = {"60": "average-plus", "50": "average", "40": "average-minus"}


def artificial_imps_phrase(code: str | None, imps: float | None) -> str:
    """One side's artificial score at IMPs (Law 12C2; the IMP forms): "average-plus (+3 IMP)"."""
    words = AVERAGE_WORDS.get(code or "") or FIXED_WORDS.get(code or "") or f"{code} %"
    if imps is None or (isinstance(imps, float) and math.isnan(imps)):
        return words
    return f"{words} ({imps:+g} IMP)".replace("-", MINUS).replace("average" + MINUS, "average-")


def _sides_artificial(ns_code: str | None, ew_code: str | None, row: dict[str, Any]) -> str:
    if row.get("ns_pct") is None and row.get("ns_imps") is not None:
        ns = artificial_imps_phrase(ns_code, row.get("ns_imps_display", row.get("ns_imps")))
        ew = artificial_imps_phrase(ew_code, row.get("ew_imps_display", row.get("ew_imps")))
    else:
        ns = artificial_phrase(ns_code, row.get("ns_pct"))
        ew = artificial_phrase(ew_code, row.get("ew_pct"))
    if ns == ew:
        return f"{ns} to both sides"
    return f"NS {ns}, EW {ew}"


def _weighted(result: str) -> str:
    """``60% 4S N =; 40% 4S N -1`` → ``60 % 4S N = / 40 % 4S N −1``."""
    parts = []
    for p in result.split(";"):
        p = p.strip()
        if not p:
            continue
        pct, _, rest = p.partition("%")
        parts.append(f"{pct.strip()} % {result_text(rest)}")
    return " / ".join(parts)


def _ruled_result(ns: str | None, ew: str | None, row: dict[str, Any]) -> str:
    """The effective result of a ruling in words: artificial, weighted, split or assigned."""
    ew = ew or ns
    ns_code, ew_code = _artificial_code(ns), _artificial_code(ew)
    if ns_code and ew_code:
        return _sides_artificial(ns_code, ew_code, row)
    if ns and ew and ns.strip() != ew.strip():

        def one(r: str) -> str:
            code = _artificial_code(r)
            if code:
                return artificial_phrase(code, None)
            return _weighted(r) if "%" in r else result_text(r)

        cite = "" if "12C1(e)" in (row.get("ruling_laws") or "") else " (Law 12C1(e))"
        return f"split score: NS {one(ns)}, EW {one(ew)}{cite}"
    if ns and "%" in ns:
        return f"weighted {_weighted(ns)}"
    played = played_text(row)
    was = f" (played: {played})" if played and contract_result(ns) else ""
    return f"assigned {result_text(ns or '')}{was}"


def explain(row: dict[str, Any], versions: int = 1) -> str | None:
    """Why this table's score is what it is, in words; ``None`` for an ordinary played result.

    ``row`` is a row of ``sql/publish/results.sql``; ``versions`` is the number of versions of
    its board in the session (more than one: a fouled board, Law 87).
    """
    kind = row.get("adjustment") or row.get("ruling_kind")
    laws = laws_text(row.get("ruling_laws"))
    tail = f", {laws}" if laws else ""
    appeal = " — changed on appeal (Law 92)" if row.get("changed_on_appeal") else ""
    if kind is None:
        if row.get("kind") == "artificial":
            ns, ew = row.get("ns_art"), row.get("ew_art")
            return f"artificial score: {_sides_artificial(ns, ew, row)}, Law 12C2"
        if row.get("kind") == "not_played":
            return "not played: the board is factored for the other tables"
        if versions > 1:
            return f"fouled board: version {row.get('board_version') or 'A'}, Law 87"
        return None
    if kind == RulingKind.FOULED_BOARD:
        return f"fouled board: version {row.get('board_version') or 'A'}{tail or ', Law 87'}"
    if kind == RulingKind.SCORE_STANDS:
        return f"director called: score stands{tail}"
    if kind == RulingKind.SCORE_CORRECTION:
        res = row.get("effective_ns_result")
        what = f" to {result_text(res)}" if res else ""
        entered = played_text(row)
        what += f" (entered: {entered})" if entered and res else ""
        return f"score corrected{what}{tail or ', Law 79C'}{appeal}"
    if kind in PENALTY_KINDS:
        return None
    if kind == RulingKind.IMP_AWARD:  # Law 86B1 (2007 86D): IMPs for the board of the match
        ns = row.get("effective_ns_result") or ""
        ew = row.get("effective_ew_result")
        teams = f"{row.get('ns_pair')} {ns}" + (f", {row.get('ew_pair')} {ew}" if ew else "")
        return f"IMP award: {teams.replace('-', MINUS)}{tail or ', Law 86B1'}{appeal}"
    ruled = _ruled_result(row.get("effective_ns_result"), row.get("effective_ew_result"), row)
    prefix = "director's error: " if kind == RulingKind.DIRECTOR_ERROR else ""
    record = ""
    if row.get("correction_id") and row.get("recorded_score") is not None:
        # Law 79C: the correction changed the table result kept for the record, not the score
        record = f"; table result corrected to {row['recorded_score']:+d} (Law 79C)".replace(
            "-", MINUS
        )
    return f"{prefix}{ruled}{tail}{appeal}{record}"


def place_text(
    rank: int | None,
    tied: bool,
    sanction: str | None = None,
    style: str = "trailing_equals",
    span: int = 1,
) -> str:
    """A place as results are printed: ``1``, and a shared place as the profile's
    ``display.tied_place`` shows it (``trailing_equals`` ``2=``, ``leading_equals`` ``=2``,
    ``range`` ``2-3`` over the ``span`` places the tied contestants share, ``plain`` ``2``);
    a suspended or disqualified contestant (Law 91) has none and shows its sanction.

    >>> place_text(6, True), place_text(6, True, style="leading_equals")
    ('6=', '=6')
    >>> place_text(6, True, style="range", span=3), place_text(6, True, style="plain")
    ('6-8', '6')
    """
    if sanction:
        return sanction
    if rank is None:
        return "–"
    if not tied:
        return str(rank)
    if style == "leading_equals":
        return f"={rank}"
    if style == "range":
        return f"{rank}-{rank + max(span, 2) - 1}"
    if style == "plain":
        return str(rank)
    return f"{rank}="


#: Reasons that only follow from another difference (the board's other lines factored around
#: a differing line; a percentage or place following a differing total): counted, not listed.
CONSEQUENTIAL = ("follows_line", "follows_total")


def agreement_text(rows: list[dict[str, Any]], program: str | None = None) -> str | None:
    """The ranking page's line on the club's own figures (``reconciliation``), or ``None``
    when the session's file carried none: "Matches the club's published results" or "Differs
    from the club's published results on N figures: ..." with each reason's count.

    ``rows`` are the session's rows of ``sql/publish/reconciliation.sql`` (``figures`` 0: a
    compared file with no difference in this session).

    >>> agreement_text([{"figures": 0, "code": None, "explanation": None}], "Compscore3")
    "Matches the club's published results (the figures of Compscore3)."
    >>> agreement_text([
    ...     {"figures": 2, "code": "swapped", "explanation": "NS and EW exchanged"},
    ...     {"figures": 3, "code": "follows_line", "explanation": "follows"}])
    ... # doctest: +NORMALIZE_WHITESPACE
    "Differs from the club's published results on 5 figures: NS and EW exchanged (2);
    3 follow from those."
    """
    if not rows:
        return None
    who = f" (the figures of {program})" if program else ""
    differing = [r for r in rows if r.get("figures")]
    if not differing:
        return f"Matches the club's published results{who}."
    total = sum(int(r["figures"]) for r in differing)
    causes = [r for r in differing if r.get("code") not in CONSEQUENTIAL]
    following = total - sum(int(r["figures"]) for r in causes)
    # one part per reason: a reason whose words name each board's own figures (the program's
    # number of results) is counted once, in its general words
    by_code: dict[Any, list[dict[str, Any]]] = {}
    for r in causes:
        by_code.setdefault(r.get("code"), []).append(r)
    parts = []
    for code, group in by_code.items():
        words = {r["explanation"] for r in group}
        text = group[0]["explanation"] if len(words) == 1 else _general_words(code, group)
        parts.append(f"{text} ({sum(int(r['figures']) for r in group)})")
    if following:
        parts.append(f"{following} follow from those" if causes else f"{following} unexplained")
    noun = "figure" if total == 1 else "figures"
    return (
        f"Differs from the club's published results{who} on {total} {noun}: "
        + "; ".join(parts)
        + "."
    )


def _general_words(code: str | None, group: list[dict[str, Any]]) -> str:
    """The general words of a reason (``pipelines.scoring.reconcile.EXPLANATIONS``) whose rows
    carry words of their own (each board's figures)."""
    from pipelines.scoring.reconcile import EXPLANATIONS

    return EXPLANATIONS.get(code or "", group[0]["explanation"])
