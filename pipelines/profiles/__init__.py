"""Regulations as data: one declarative TOML file per federation's scoring regulations.

The Laws leave several choices to the Regulating Authority, and scoring
programs made their own. Every such choice is a field of :class:`Profile`, set
in ``pipelines/profiles/<name>.toml``; no rule module branches on a
federation's name. :class:`Profile` is a pydantic model with one nested model per TOML
section (:class:`Matchpoints`, :class:`Imps`, ...), every choice a ``Literal`` and every model
``extra="forbid"``: the loader rejects unknown sections, keys and values with an error naming
the file and the key, so a typo in a profile cannot silently fall back to a default. A
setting is read as ``profile.imps.butler`` or, since every key is unique across sections,
``profile.butler``.

Header: ``title`` (the federation or program the profile reproduces), ``source`` (one
line on where its conventions were worked out), ``programs`` (exporting programs whose files
it scores when ``events.csv`` names no profile; see :func:`detect`) and ``[sources]``, the
source of every section's settings (``imps = "..."``) and, where one setting has its own,
of that setting (``"imps.datum_rounding" = "..."``). ``traveller profiles`` lists them.

``date_order`` (header, optional): how the federation writes a slashed date, ``"dmy"``
(``11/03/2026`` is 11 March: EBU, ABF, FFB) or ``"mdy"`` (3 November: ACBL); absent, the
order is not stated and an ambiguous date is an error unless its file states the order by an
unambiguous date (:mod:`pipelines.scoring.dates`). Once stated it needs its source in
``[sources]`` (``date_order = "..."``).

Fields (section.key):

* ``matchpoints.scale``: ``"2/1"`` (2 per beat, 1 per tie) or ``"1/0.5"`` (ACBL).
* ``matchpoints.factoring_missing``: how a board short of results (missing or
  not played) is factored to the expected count: ``neuberg`` or ``linear``.
* ``matchpoints.factoring_adjusted``: the same where a table-level artificial
  score took a result's place.
* ``matchpoints.compare``: the field a board's results are compared in when a session has
  several sections playing the same boards: ``section`` (each section its own field, its own
  ranking) or ``field`` (the session's sections together: "scored across the field", one
  ranking per direction of play). Law 78A leaves the comparison field to the organiser; an
  event's ``compare`` in ``events.csv`` overrides the profile's.
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
  score of a contestant that missed boards is scaled to the boards the fullest
  contestant of its ranking group played — its direction in a Mitchell —, i.e. it
  gets its own average on the boards it missed; a field whose every pair sat out a
  round is not scaled).
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
* ``[completeness]`` (a session checked against its movement,
  :mod:`pipelines.scoring.completeness`): ``contestant_boards``, the percentage of the boards
  the session's fullest contestant played below which a contestant is no contestant of the
  movement (a mistyped pair number, a pair that left: 50, since a sit-out is one round and
  no movement seats a pair out of half a session); ``board_results``, the percentage of the
  results expected on a board (``expected_results``, else the most any board of its section
  has) below which the board is mostly missing, not short of a result (50). Either holds the
  event until the file is corrected.
* ``penalties.standard``: the penalty when a ruling gives none (``25%`` of a top,
  ``6 MP``); ``penalties.sanctioned``: a suspended or disqualified contestant (Law 91)
  is ``unranked`` (shown without a place) or ``excluded`` from the standings.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from pipelines.laws.matchpoints import SCALES
from pipelines.laws.rounding import MODES

#: How a shared place is printed (``display.tied_place``): ``6=`` (trailing_equals), ``=6``
#: (leading_equals), ``6-7`` (range: the places the tied contestants span) or ``6`` (plain).
TIED_PLACE_STYLES: tuple[str, ...] = ("trailing_equals", "leading_equals", "range", "plain")

PROFILE_DIR = Path(__file__).parent
DEFAULT_PROFILE = "wbf"

Scale = Literal[SCALES]  # type: ignore[valid-type]
Rounding = Literal[MODES]  # type: ignore[valid-type]
Factoring = Literal["neuberg", "linear"]
Percentage = int  # 0..100, bounded where used


class ProfileError(ValueError):
    """A profile file is missing, unknown, or holds an invalid value."""


class _Section(BaseModel):
    """One TOML section: every key known and typed (no coercion: ``"2"`` is not 2)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Matchpoints(_Section):
    """``[matchpoints]``: the scale and how short boards are factored (Law 78A, 12C2)."""

    scale: Scale
    factoring_missing: Factoring
    factoring_adjusted: Factoring
    compare: Literal["section", "field"]


class Artificial(_Section):
    """``[artificial]``: artificial adjusted scores (Law 12C2)."""

    average_plus: int = Field(ge=0, le=100)
    average: int = Field(ge=0, le=100)
    average_minus: int = Field(ge=0, le=100)
    session_percentage_rule: bool
    other_percentages: bool


class Periods(_Section):
    """``[periods]``: the correction period (Law 79C1) and the time to appeal (Law 92B)."""

    correction_minutes: int = Field(ge=0)
    appeal_minutes: int = Field(ge=0)


class Display(_Section):
    """``[display]``: how matchpoints, totals, percentages and shared places are shown."""

    mp_decimals: int
    mp_rounding: Rounding
    traveller_factoring: Literal["always", "adjusted_boards_only"]
    total_decimals: int
    percentage_decimals: int
    percentage_rounding: Rounding
    tied_place: Literal[TIED_PLACE_STYLES]  # type: ignore[valid-type]


class Totals(_Section):
    """``[totals]``: what a contestant's total adds up."""

    count: Literal["exact", "displayed"]
    sitout: Literal["none", "scale_to_full"]


class Ranking(_Section):
    """``[ranking]``: how equal percentages are placed."""

    tiebreak: Literal["none", "head_to_head"]


class Fouled(_Section):
    """``[fouled]``: a fouled board's small groups (Law 87)."""

    small_groups: Literal["neuberg", "ebu", "acbl"]


class Penalties(_Section):
    """``[penalties]``: the standard penalty (Law 90) and a sanctioned contestant (Law 91)."""

    standard: str
    sanctioned: Literal["unranked", "excluded"]

    @field_validator("standard")
    @classmethod
    def _standard(cls, v: str) -> str:
        from pipelines.laws.penalties import parse_penalty

        parse_penalty(v, "25%")
        return v


class Imps(_Section):
    """``[imps]``: IMP forms (Law 78B, 12C2(b), 86)."""

    imp_average_plus: int
    imp_average: int
    imp_average_minus: int
    butler: Literal["acbl", "compscore"]
    datum_rounding: Literal["half_even", "half_away"]
    cross_imps: Literal["average", "total"]
    imp_decimals: int
    imp_rounding: Rounding
    fractional_margin: Literal["round_half_up", "round_half_even", "interpolate"]
    missing_board: Literal["average", "average_minus"]
    team_tiebreak: Literal["imp_quotient", "head_to_head", "none"]
    standard_imps: str
    imp_session_average: bool

    @field_validator("standard_imps")
    @classmethod
    def _standard_imps(cls, v: str) -> str:
        from pipelines.laws.penalties import PenaltyError, parse_penalty

        if parse_penalty(v, "3 IMP").unit not in ("IMP", "VP"):
            raise PenaltyError("give the penalty at IMP forms in IMP or VP, e.g. '3 IMP'")
        return v


class Boards(_Section):
    """``[boards]``: how a board is identified."""

    redealt_per_round: bool


class Reconciliation(_Section):
    """``[reconciliation]``: a file whose official figures Traveller does not reproduce."""

    on_difference: Literal["report", "provisional", "hold"]


class Completeness(_Section):
    """``[completeness]``: how far short of its movement a session may be and still be
    published (:mod:`pipelines.scoring.completeness`); percentages, whole numbers."""

    contestant_boards: int = Field(gt=0, le=100)
    board_results: int = Field(gt=0, le=100)


#: The sections of a profile and their models, in file order.
SECTIONS: dict[str, type[_Section]] = {
    "matchpoints": Matchpoints,
    "artificial": Artificial,
    "periods": Periods,
    "display": Display,
    "totals": Totals,
    "ranking": Ranking,
    "fouled": Fouled,
    "penalties": Penalties,
    "imps": Imps,
    "boards": Boards,
    "reconciliation": Reconciliation,
    "completeness": Completeness,
}

#: Settings of the profile's header (outside any section) that ``[sources]`` may, and once
#: stated must, give a source for.
HEADER_SETTINGS: tuple[str, ...] = ("date_order",)

#: The section of every setting (keys are unique across sections).
SECTION_OF: dict[str, str] = {k: s for s, m in SECTIONS.items() for k in m.model_fields}


class Profile(BaseModel):
    """One federation's scoring regulations (see the module docstring for each field).

    A setting reads ``profile.<section>.<key>`` (``profile.imps.butler``) or, every key
    being unique, ``profile.<key>`` (``profile.butler``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str
    title: str
    source: str
    #: Exporting programs this profile reproduces: a file whose program name (USEBIO
    #: ``PROGRAM_NAME``, PBN ``Generator``) contains one of these (case-insensitive) is scored
    #: with it unless ``events.csv`` names another profile.
    programs: tuple[str, ...] = ()
    #: How the federation writes a slashed date: ``"dmy"`` (``11/03/2026`` is 11 March) or
    #: ``"mdy"`` (3 November); ``None`` (absent): not stated, so an ambiguous date is an error
    #: unless its file states the order (:mod:`pipelines.scoring.dates`).
    date_order: Literal["dmy", "mdy"] | None = None
    #: Where each setting comes from: ``(key, source)`` pairs, ``key`` a section
    #: (``imps``) or one setting (``imps.datum_rounding``); every section has one.
    sources: tuple[tuple[str, str], ...]
    matchpoints: Matchpoints
    artificial: Artificial
    periods: Periods
    display: Display
    totals: Totals
    ranking: Ranking
    fouled: Fouled
    penalties: Penalties
    imps: Imps
    boards: Boards
    reconciliation: Reconciliation
    completeness: Completeness

    @field_validator("programs", mode="before")
    @classmethod
    def _programs(cls, v: object) -> tuple[str, ...]:
        if not isinstance(v, list | tuple) or not all(isinstance(x, str) and x for x in v):
            raise ValueError("'programs' must be a list of program names")
        return tuple(v)

    @field_validator("sources", mode="before")
    @classmethod
    def _sources(cls, table: object) -> tuple[tuple[str, str], ...]:
        """A source (non-empty string) for every section, keys naming real settings."""
        if isinstance(table, tuple):
            table = dict(table)
        if not isinstance(table, dict):
            raise ValueError("missing section [sources]")
        for key, text in table.items():
            section, _, setting = key.partition(".")
            if key in HEADER_SETTINGS:
                pass
            elif section not in SECTIONS or (
                setting and setting not in SECTIONS[section].model_fields
            ):
                raise ValueError(f"[sources] names no setting {key!r}")
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"[sources] {key} must be a non-empty string")
        missing = [s for s in SECTIONS if s not in table]
        if missing:
            raise ValueError(f"[sources] gives no source for {missing}")
        return tuple((k, v) for k, v in table.items())

    @model_validator(mode="after")
    def _header_sources(self) -> Profile:
        """A header setting that is stated (``date_order``) has its source in ``[sources]``."""
        given = dict(self.sources)
        for key in HEADER_SETTINGS:
            if getattr(self, key) is not None and not given.get(key):
                raise ValueError(f"[sources] gives no source for {key!r}")
        return self

    def __getattr__(self, key: str) -> Any:
        """``profile.butler`` is ``profile.imps.butler`` (see :data:`SECTION_OF`)."""
        section = SECTION_OF.get(key)
        if section is None:
            return super().__getattr__(key)  # type: ignore[misc]
        return getattr(getattr(self, section), key)

    def with_settings(self, **settings: Any) -> Profile:
        """A copy with some settings changed (by key, e.g. ``sanctioned="excluded"``),
        validated like a file's."""
        data = self.model_dump(exclude={"name"})
        for key, value in settings.items():
            if key not in SECTION_OF:
                raise ProfileError(f"profile {self.name}: no setting {key!r}")
            data[SECTION_OF[key]][key] = value
        return parse(self.name, data)

    @property
    def datum_half(self) -> str:
        """How :func:`pipelines.laws.imp_pairs.butler_datum` rounds a trimmed mean ending in an
        exact 5 (``imps.datum_rounding``): ``even`` or ``away`` from zero."""
        return {"half_even": "even", "half_away": "away"}[self.imps.datum_rounding]

    def source_of(self, section: str, key: str | None = None) -> str:
        """The source of setting ``section.key`` (the section's source when the key has none)."""
        by = dict(self.sources)
        return by.get(f"{section}.{key}") or by[section]

    @property
    def standard_penalty(self) -> str:
        """The penalty a ruling gets when it names none (``penalties.standard``)."""
        return self.penalties.standard

    @property
    def unit_den(self) -> int:
        """Denominator of one matchpoint unit: 1 on 2/1, 2 on 1/0.5."""
        return 1 if self.matchpoints.scale == "2/1" else 2


class ProfileSet(Mapping[str, Profile]):
    """The profiles one computation scores with, each loaded once and passed down.

    ``profs[name]`` is the profile ``name`` (``None`` or empty: :data:`DEFAULT_PROFILE`), the
    same object every time. :func:`pipelines.scoring.day.score_day` builds one for the day's
    events (:meth:`of_events`, every profile they name loaded and validated before anything is
    scored) and hands it to every step; a function called on its own (a test, the benchmark)
    gets a fresh one (:meth:`ensure`). A name not yet in the set is loaded on first use.
    """

    def __init__(self, loaded: Mapping[str, Profile] | None = None) -> None:
        self._by: dict[str, Profile] = dict(loaded or {})

    @staticmethod
    def key(name: str | None) -> str:
        """The profile a name means: ``None`` or empty is the default; case and spaces aside."""
        return (name or DEFAULT_PROFILE).strip().lower()

    def __getitem__(self, name: str | None) -> Profile:  # type: ignore[override]
        key = self.key(name)
        if key not in self._by:
            self._by[key] = load(key)
        return self._by[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by)

    def __len__(self) -> int:
        return len(self._by)

    @classmethod
    def of(cls, names: Iterable[str | None]) -> ProfileSet:
        """The profiles ``names``, each loaded (and so validated) now."""
        out = cls()
        for name in names:
            _ = out[name]  # loaded (and validated) now
        return out

    @classmethod
    def of_events(cls, events: object) -> ProfileSet:
        """The profiles the resolved ``events`` frame names (its ``profile`` column), and the
        default (an event not listed is scored with it)."""
        columns = getattr(events, "columns", [])
        names = events["profile"].to_list() if "profile" in columns else []  # type: ignore[index]
        return cls.of([None, *names])

    @classmethod
    def ensure(cls, profs: ProfileSet | None) -> ProfileSet:
        """``profs``, or a fresh set when none was passed down."""
        return cls() if profs is None else profs


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
    """Load and validate profile ``name`` (default :data:`DEFAULT_PROFILE`): one of the
    shipped profiles by name, never a path (``../../x`` is an unknown profile)."""
    name = (name or DEFAULT_PROFILE).strip().lower()
    path = PROFILE_DIR / f"{name}.toml"
    if name not in available() or not path.is_file():
        raise ProfileError(f"unknown profile {name!r}; available: {', '.join(available())}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ProfileError(f"profile {name} ({path}): not valid TOML: {e}") from e
    return parse(name, data, path)


def _message(error: dict[str, Any]) -> str:
    """One pydantic error as a scorer reads it: the key (``section.key``) and what is wrong."""
    loc = [str(p) for p in error["loc"] if not isinstance(p, int)]
    key = ".".join(loc) or "profile"
    kind = error["type"]
    if kind == "extra_forbidden":
        where = f" in [{loc[0]}]" if len(loc) > 1 else ""
        return f"unknown key {loc[-1]!r}{where}"
    if kind == "missing":
        return f"missing {key}" if len(loc) > 1 else f"missing section [{key}]"
    msg = str(error["msg"]).removeprefix("Value error, ")
    if kind == "model_type":
        return f"[{key}] must be a table"
    if not loc or loc[0] in ("programs", "sources"):
        return msg
    return f"{key} = {error.get('input')!r}: {msg}"


def parse(name: str, data: dict, path: Path | str | None = None) -> Profile:
    """Validate a profile's TOML ``data``: every section and key known, every value legal.

    An error (:class:`ProfileError`) names the file and each offending key."""
    where = f"profile {name} ({path or f'{name}.toml'})"
    if "name" in data:  # the file's name is the profile's
        raise ProfileError(f"{where}: unknown key 'name'")
    try:
        return Profile.model_validate({**data, "name": name})
    except ValidationError as e:
        raise ProfileError(f"{where}: " + "; ".join(_message(x) for x in e.errors())) from e
