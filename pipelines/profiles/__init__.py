"""Regulations as data: one declarative TOML file per federation's scoring regulations.

The Laws leave several choices to the Regulating Authority, and scoring
programs made their own. Every such choice is a field of :class:`Profile`, set
in ``pipelines/profiles/<name>.toml``; no rule module branches on a
federation's name. The loader rejects unknown keys and values, so a typo in a
profile cannot silently fall back to a default.

Header: ``title`` (the federation or program the profile reproduces), ``source`` (one
line on where its conventions were worked out), ``programs`` (exporting programs whose files
it scores when ``events.csv`` names no profile; see :func:`detect`) and ``[sources]``, the
source of every section's settings (``imps = "..."``) and, where one setting has its own,
of that setting (``"imps.datum_rounding" = "..."``). ``traveller profiles`` lists them.

Fields (section.key):

* ``matchpoints.scale``: ``"2/1"`` (2 per beat, 1 per tie) or ``"1/0.5"`` (ACBL).
* ``matchpoints.factoring_missing``: how a board short of results (missing or
  not played) is factored to the expected count: ``neuberg`` or ``linear``.
* ``matchpoints.factoring_adjusted``: the same where a table-level artificial
  score took a result's place.
* ``artificial.average_plus|average|average_minus``: the percentages of the full
  top for Av+, Av, Av- (Law 12C2(a): 60/50/40); variable averages will later
  be resolved by the session-percentage rule (12C2(c)).
* ``display.mp_decimals`` / ``display.mp_rounding``: how board matchpoints are shown
  (see :mod:`pipelines.laws.rounding`).
* ``display.traveller_factoring``: ``always`` shows factored matchpoints on every
  short board; ``adjusted_boards_only`` (Compscore) shows a board that is
  merely short of results with its own top and factors it only in totals.
* ``display.total_decimals``, ``display.percentage_decimals``,
  ``display.percentage_rounding``: how totals and percentages are shown.
* ``display.tied_place``: how a shared place is printed: ``trailing_equals`` (``6=``),
  ``leading_equals`` (``=6``), ``range`` (``6-7``, the places the tied contestants span) or
  ``plain`` (``6``, as the USEBIO ``PLACE`` element holds it). Display only: places are
  compared and stored as numbers.
* ``totals.count``: ``exact`` sums exact matchpoints; ``displayed`` sums the
  rounded matchpoints shown on the traveller (Magic Contest).
* ``totals.sitout``: ``none`` (a contestant's score is what it earned, its
  percentage is over the boards it played) or ``scale_to_full`` (Compscore: the
  score of a contestant that missed boards is scaled to the full number of
  boards of its session, i.e. it gets its own average on the missed boards).
* ``ranking.tiebreak``: ``none`` (equal percentages share the place) or
  ``head_to_head`` (Magic Contest: the tied contestant with more matchpoints on
  the boards they played against each other is placed higher).
* ``artificial.session_percentage_rule``: apply Law 12C2(c) (2007: Law 88) to variable
  averages: average-plus is the non-offender's ``max(60 %, percentage on the other
  boards)``, average-minus the offender's ``min(40 %, ...)`` under the 2017 Laws.
* ``fouled.small_groups``: how a fouled board's small groups are scored (Law 87 and
  the regulation): ``neuberg`` (a single result 60 %), ``ebu`` (White Book 4.2.3.3:
  65/55 and 70/60/50 % when E >= 3A), ``acbl`` (1991 rule).
* ``[imps]`` (IMP forms: Butler and cross-IMP pairs, teams; Law 78B, 12C2(b), 86):
  ``imp_average_plus|imp_average|imp_average_minus``: artificial scores in IMPs (+3, 0,
  -3 by Law 12C2(b); a tournament organiser may vary them); ``butler``: the datum
  convention (``acbl``: drop 5 % of the results at each end, mean rounded to 10;
  ``compscore``: drop the single top and bottom result); ``datum_rounding``: how a trimmed
  mean ending in an exact 5 is rounded to the ten (``half_even``: 425 -> 420, the ACBLscore
  manual; ``half_away``: away from zero, -445 -> -450 and 125 -> 130, Compscore3 as the
  ABF's published Butler files show it); ``cross_imps``:
  ``average`` (IMPs against each other result divided by their number) or ``total``;
  ``imp_decimals``/``imp_rounding``: how IMPs are shown; ``fractional_margin``: how a
  fractional IMP margin is looked up on a VP scale; ``missing_board``: what each team
  gets on a match board without comparable results (``average`` 0 IMPs, ``average_minus``
  -3 IMPs); ``team_tiebreak``: how teams level on VPs are separated (``imp_quotient``,
  ``head_to_head`` then IMP quotient, ``none``); ``standard_imps``: the procedural
  penalty at IMP forms when a ruling names none (``3 IMP``, ``1 VP``);
  ``imp_session_average``: Law 12C2(c) at IMPs — ``false`` (the default: Av+/Av− are the
  fixed IMPs above, Law 12C2(b)) or ``true`` (a non-offending contestant's Av+ is the better
  of those IMPs and its average IMPs per board on its other boards of the session; under the
  2017 Laws an offending one's Av− the worse of them; at teams the team's average over the
  session's matches, rounded as ``imp_decimals``/``imp_rounding`` show IMPs).
* ``boards.redealt_per_round``: pairs and individuals whose every round plays its own deals
  numbered 1..N (a board is then identified by its round and number; a result row must give
  the round). Teams always identify a match board by its round.
* ``artificial.other_percentages``: whether artificial scores other than 60/50/40 % (e.g.
  ``A55``/``A45``) may be given (2017 Law 12C2(d): the Regulating Authority may regulate
  other artificial scores); ``false`` refuses them with the reason.
* ``[periods]`` (Laws 79C, 92B): ``correction_minutes``, the correction period after the
  official scores are made available (Law 79C1: 30 minutes unless the organiser sets
  otherwise); ``appeal_minutes``, the time to appeal a ruling (Law 92B: 30 minutes). An
  event's ``correction_minutes`` / ``appeal_minutes`` in ``events.csv`` override them.
* ``reconciliation.on_difference``: what happens to a session whose file's official figures
  (the exporting program's) Traveller does not reproduce for a reason other than an adjusted
  score it knows about: ``report`` (published as usual, the differences listed in
  ``reconciliation``), ``provisional`` (published, never shown final) or ``hold`` (not
  published until the file is corrected). The decision is the federation's, not the engine's.
* ``penalties.standard``: the penalty when a ruling gives none (``25%`` of a top,
  ``6 MP``); ``penalties.sanctioned``: a suspended or disqualified contestant (Law 91)
  is ``unranked`` (shown without a place) or ``excluded`` from the standings.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

from pipelines.laws.matchpoints import SCALES
from pipelines.laws.rounding import MODES

#: How a shared place is printed (``display.tied_place``): ``6=`` (trailing_equals), ``=6``
#: (leading_equals), ``6-7`` (range: the places the tied contestants span) or ``6`` (plain).
TIED_PLACE_STYLES: tuple[str, ...] = ("trailing_equals", "leading_equals", "range", "plain")

PROFILE_DIR = Path(__file__).parent
DEFAULT_PROFILE = "wbf"

_CHOICES: dict[str, tuple[str, ...]] = {
    "scale": SCALES,
    "factoring_missing": ("neuberg", "linear"),
    "factoring_adjusted": ("neuberg", "linear"),
    "mp_rounding": MODES,
    "percentage_rounding": MODES,
    "traveller_factoring": ("always", "adjusted_boards_only"),
    "count": ("exact", "displayed"),
    "sitout": ("none", "scale_to_full"),
    "tiebreak": ("none", "head_to_head"),
    "small_groups": ("neuberg", "ebu", "acbl"),
    "sanctioned": ("unranked", "excluded"),
    "butler": ("acbl", "compscore"),
    "datum_rounding": ("half_even", "half_away"),
    "on_difference": ("report", "provisional", "hold"),
    "cross_imps": ("average", "total"),
    "imp_rounding": MODES,
    "fractional_margin": ("round_half_up", "round_half_even", "interpolate"),
    "missing_board": ("average", "average_minus"),
    "team_tiebreak": ("imp_quotient", "head_to_head", "none"),
    "tied_place": TIED_PLACE_STYLES,
}

_SECTIONS: dict[str, tuple[str, ...]] = {
    "matchpoints": ("scale", "factoring_missing", "factoring_adjusted"),
    "artificial": (
        "average_plus",
        "average",
        "average_minus",
        "session_percentage_rule",
        "other_percentages",
    ),
    "periods": ("correction_minutes", "appeal_minutes"),
    "display": (
        "mp_decimals",
        "mp_rounding",
        "traveller_factoring",
        "total_decimals",
        "percentage_decimals",
        "percentage_rounding",
        "tied_place",
    ),
    "totals": ("count", "sitout"),
    "ranking": ("tiebreak",),
    "fouled": ("small_groups",),
    "penalties": ("standard", "sanctioned"),
    "imps": (
        "imp_average_plus",
        "imp_average",
        "imp_average_minus",
        "butler",
        "datum_rounding",
        "cross_imps",
        "imp_decimals",
        "imp_rounding",
        "fractional_margin",
        "missing_board",
        "team_tiebreak",
        "standard_imps",
        "imp_session_average",
    ),
    "boards": ("redealt_per_round",),
    "reconciliation": ("on_difference",),
}


class ProfileError(ValueError):
    """A profile file is missing, unknown, or holds an invalid value."""


@dataclass(frozen=True)
class Profile:
    """One federation's scoring regulations (see the module docstring for each field)."""

    name: str
    title: str
    source: str
    #: Exporting programs this profile reproduces: a file whose program name (USEBIO
    #: ``PROGRAM_NAME``, PBN ``Generator``) contains one of these (case-insensitive) is scored
    #: with it unless ``events.csv`` names another profile.
    programs: tuple[str, ...]
    #: Where each setting comes from: ``(key, source)`` pairs, ``key`` a section
    #: (``imps``) or one setting (``imps.datum_rounding``); every section has one.
    sources: tuple[tuple[str, str], ...]
    scale: str
    factoring_missing: str
    factoring_adjusted: str
    average_plus: int
    average: int
    average_minus: int
    mp_decimals: int
    mp_rounding: str
    traveller_factoring: str
    total_decimals: int
    percentage_decimals: int
    percentage_rounding: str
    tied_place: str
    count: str
    sitout: str
    tiebreak: str
    session_percentage_rule: bool
    other_percentages: bool
    correction_minutes: int
    appeal_minutes: int
    small_groups: str
    standard: str
    sanctioned: str
    imp_average_plus: int
    imp_average: int
    imp_average_minus: int
    butler: str
    datum_rounding: str
    cross_imps: str
    imp_decimals: int
    imp_rounding: str
    fractional_margin: str
    missing_board: str
    team_tiebreak: str
    standard_imps: str
    imp_session_average: bool
    redealt_per_round: bool
    on_difference: str

    @property
    def datum_half(self) -> str:
        """How :func:`pipelines.laws.imp_pairs.butler_datum` rounds a trimmed mean ending in an
        exact 5 (``imps.datum_rounding``): ``even`` or ``away`` from zero."""
        return {"half_even": "even", "half_away": "away"}[self.datum_rounding]

    def source_of(self, section: str, key: str | None = None) -> str:
        """The source of setting ``section.key`` (the section's source when the key has none)."""
        by = dict(self.sources)
        return by.get(f"{section}.{key}") or by[section]

    @property
    def standard_penalty(self) -> str:
        """The penalty a ruling gets when it names none (``penalties.standard``)."""
        return self.standard

    @property
    def unit_den(self) -> int:
        """Denominator of one matchpoint unit: 1 on 2/1, 2 on 1/0.5."""
        return 1 if self.scale == "2/1" else 2


def _sources(name: str, table: object) -> tuple[tuple[str, str], ...]:
    """Validate ``[sources]``: a source (string) for every section, keys naming real settings."""
    if not isinstance(table, dict):
        raise ProfileError(f"profile {name}: missing section [sources]")
    for key, text in table.items():
        section, _, setting = key.partition(".")
        if section not in _SECTIONS or (setting and setting not in _SECTIONS[section]):
            raise ProfileError(f"profile {name}: [sources] names no setting {key!r}")
        if not isinstance(text, str) or not text.strip():
            raise ProfileError(f"profile {name}: [sources] {key} must be a non-empty string")
    missing = [s for s in _SECTIONS if s not in table]
    if missing:
        raise ProfileError(f"profile {name}: [sources] gives no source for {missing}")
    return tuple((k, v) for k, v in table.items())


def detect(program: str | None) -> str | None:
    """The profile reproducing the exporting ``program`` (the first, by name, whose
    ``programs`` entry the program's name contains, case-insensitive), else ``None``.

    >>> detect("Compscore3 (version 3.2)"), detect("Magic Contest 4.13"), detect("Excel")
    ('abf', 'ffb', None)
    """
    text = (program or "").casefold()
    if not text:
        return None
    for name in available():
        if any(p.casefold() in text for p in load(name).programs):
            return name
    return None


def available() -> list[str]:
    """Names of the profiles shipped with Traveller."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


@cache
def load(name: str | None = None) -> Profile:
    """Load and validate profile ``name`` (default :data:`DEFAULT_PROFILE`)."""
    name = (name or DEFAULT_PROFILE).strip().lower()
    path = PROFILE_DIR / f"{name}.toml"
    if not path.is_file():
        raise ProfileError(f"unknown profile {name!r}; available: {', '.join(available())}")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return parse(name, data)


def parse(name: str, data: dict) -> Profile:
    """Validate a profile's TOML ``data``: every section and key known, every value legal."""
    values: dict[str, object] = {"name": name}
    for key in ("title", "source"):
        if not isinstance(data.get(key), str):
            raise ProfileError(f"profile {name}: '{key}' must be a string")
        values[key] = data[key]
    extra = set(data) - {"title", "source", "programs", "sources", *_SECTIONS}
    if extra:
        raise ProfileError(f"profile {name}: unknown section(s) {sorted(extra)}")
    programs = data.get("programs", [])
    if not isinstance(programs, list) or not all(isinstance(x, str) and x for x in programs):
        raise ProfileError(f"profile {name}: 'programs' must be a list of program names")
    values["programs"] = tuple(programs)
    values["sources"] = _sources(name, data.get("sources"))
    for section, keys in _SECTIONS.items():
        table = data.get(section)
        if not isinstance(table, dict):
            raise ProfileError(f"profile {name}: missing section [{section}]")
        unknown = set(table) - set(keys)
        if unknown:
            raise ProfileError(f"profile {name}: unknown key(s) {sorted(unknown)} in [{section}]")
        for key in keys:
            if key not in table:
                raise ProfileError(f"profile {name}: missing {section}.{key}")
            v = table[key]
            if key in _CHOICES and v not in _CHOICES[key]:
                raise ProfileError(
                    f"profile {name}: {section}.{key} = {v!r}; expected one of {_CHOICES[key]}"
                )
            values[key] = v
    types = {f.name: f.type for f in fields(Profile)}
    for key, v in values.items():
        if types[key] in ("int", int) and not (isinstance(v, int) and not isinstance(v, bool)):
            raise ProfileError(f"profile {name}: {key} must be an integer, not {v!r}")
        if types[key] in ("bool", bool) and not isinstance(v, bool):
            raise ProfileError(f"profile {name}: {key} must be true or false, not {v!r}")
        if types[key] in ("str", str) and not isinstance(v, str):
            raise ProfileError(f"profile {name}: {key} must be a string, not {v!r}")
    from pipelines.laws.penalties import PenaltyError, parse_penalty

    try:
        parse_penalty(values["standard"], "25%")
    except PenaltyError as e:
        raise ProfileError(f"profile {name}: penalties.standard: {e}") from e
    try:
        if parse_penalty(values["standard_imps"], "3 IMP").unit not in ("IMP", "VP"):
            raise PenaltyError("give the penalty at IMP forms in IMP or VP, e.g. '3 IMP'")
    except PenaltyError as e:
        raise ProfileError(f"profile {name}: imps.standard_imps: {e}") from e
    for key in ("correction_minutes", "appeal_minutes"):
        if values[key] < 0:  # type: ignore[operator]
            raise ProfileError(f"profile {name}: periods.{key} must be 0 or more minutes")
    for key in ("average_plus", "average", "average_minus"):
        if not 0 <= values[key] <= 100:  # type: ignore[operator]
            raise ProfileError(f"profile {name}: {key} must be a percentage 0..100")
    return Profile(**values)  # type: ignore[arg-type]
