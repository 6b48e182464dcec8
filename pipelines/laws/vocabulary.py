"""The directors' vocabulary: the kinds of ruling, the outcomes of an appeal, and the groups
of kinds the Laws treat alike. Defined once; the ruling-log reader's validation
(:mod:`pipelines.scoring.rulings`), the engine (:mod:`pipelines.scoring.adjust`,
:mod:`pipelines.scoring.versions`), the stages, the audit marts and the reports use these.

The members are :class:`~enum.StrEnum`\\ s, so each is its text in the log (``"assigned"``)
and compares equal to it; frames keep plain text columns.

>>> RulingKind("weighted") is RulingKind.WEIGHTED
True
>>> RulingKind.WEIGHTED == "weighted"
True
>>> "procedural_penalty" in PENALTY_KINDS
True
>>> [str(o) for o in OVERTURNED]
['changed', 'changed_one_side']
"""

from __future__ import annotations

from enum import StrEnum


class RulingKind(StrEnum):
    """What a director ruled (the ``kind`` of a ruling-log line), in the order the mix of
    rulings is shown."""

    #: Law 12A: no damage, the table result stands.
    SCORE_STANDS = "score_stands"
    #: Law 12C1(b), (e): an assigned score (balanced, or split between the sides).
    ASSIGNED = "assigned"
    #: Law 12C1(c): a weighted score, several results each with its weight.
    WEIGHTED = "weighted"
    #: Law 12C2: an artificial adjusted score (Average, Average plus, Average minus).
    ARTIFICIAL = "artificial"
    #: Law 87: a fouled board, the table played another version.
    FOULED_BOARD = "fouled_board"
    #: Law 82C: the director's own error, both sides treated as non-offending.
    DIRECTOR_ERROR = "director_error"
    #: Law 90: a procedural penalty.
    PROCEDURAL_PENALTY = "procedural_penalty"
    #: Law 91: a disciplinary penalty.
    DISCIPLINARY_PENALTY = "disciplinary_penalty"
    #: Law 79C: a score corrected within (or, approved, after) the correction period.
    SCORE_CORRECTION = "score_correction"
    #: Law 86B1 (2007: 86D): IMPs awarded for a board of a team match.
    IMP_AWARD = "imp_award"


class AppealOutcome(StrEnum):
    """What was decided on an appeal (Laws 92, 93), in the order the appeal statistics show
    them. The decision replaces the director's (Law 93)."""

    #: the ruling stands
    UPHELD = "upheld"
    #: new results for one or both sides, or a penalty's new amount (or its withdrawal)
    CHANGED = "changed"
    #: new results for exactly one side
    CHANGED_ONE_SIDE = "changed_one_side"
    #: the appellant withdrew; nothing changes
    WITHDRAWN = "withdrawn"
    #: sent back to the director; nothing changes
    REFERRED_BACK = "referred_back"


#: Every ruling kind, in order.
RULING_KINDS: tuple[RulingKind, ...] = tuple(RulingKind)
#: Every appeal outcome, in order.
OUTCOMES: tuple[AppealOutcome, ...] = tuple(AppealOutcome)

#: Penalties (Laws 90, 91): about a contestant, not a board's result.
PENALTY_KINDS: frozenset[RulingKind] = frozenset(
    {RulingKind.PROCEDURAL_PENALTY, RulingKind.DISCIPLINARY_PENALTY}
)
#: Rulings about a board (every kind but the penalties).
BOARD_KINDS: frozenset[RulingKind] = frozenset(RulingKind) - PENALTY_KINDS

#: Kinds whose results replace the table's for scoring: an adjusted score (Law 12C, and
#: Law 82C's adjusted score for the director's error).
SCORE_ADJUSTING: tuple[RulingKind, ...] = (
    RulingKind.ASSIGNED,
    RulingKind.WEIGHTED,
    RulingKind.ARTIFICIAL,
    RulingKind.DIRECTOR_ERROR,
)
#: Kinds that change a table's result: the adjusting ones and a score correction (79C).
RESULT_CHANGING: tuple[RulingKind, ...] = (*SCORE_ADJUSTING, RulingKind.SCORE_CORRECTION)
#: Kinds that change what a board's table scores, as the run summary counts "adjusted
#: scores": the result-changing ones and a fouled board (Law 87).
BOARD_CHANGING: tuple[RulingKind, ...] = (*RESULT_CHANGING, RulingKind.FOULED_BOARD)

#: Kinds that adjust the score on the director's judgement of an irregularity (Law 12C; at
#: teams an IMP award, Law 86B1) — what the audit sizes and compares; the director's own
#: error (82C) is not a judgement on the players.
JUDGEMENT_ADJUSTING: tuple[RulingKind, ...] = (
    RulingKind.ASSIGNED,
    RulingKind.WEIGHTED,
    RulingKind.ARTIFICIAL,
    RulingKind.IMP_AWARD,
)
#: Judgement calls on a board: they adjust or let the score stand.
JUDGEMENT: tuple[RulingKind, ...] = (RulingKind.SCORE_STANDS, *JUDGEMENT_ADJUSTING)

#: Outcomes that change the ruling appealed.
OVERTURNED: tuple[AppealOutcome, ...] = (AppealOutcome.CHANGED, AppealOutcome.CHANGED_ONE_SIDE)
#: Outcomes of a decided appeal (a withdrawn appeal was not decided).
DECIDED: tuple[AppealOutcome, ...] = (
    AppealOutcome.UPHELD,
    AppealOutcome.CHANGED,
    AppealOutcome.CHANGED_ONE_SIDE,
    AppealOutcome.REFERRED_BACK,
)
