"""Procedural (Law 90) and disciplinary (Law 91) penalties.

A penalty is assessed to one contestant **in addition to** the board result and independently
of it: it is deducted from the penalised contestant's total only and never changes any other
contestant's matchpoints or IMPs (``session % = (sum of MP - penalties) / sum of tops``).

Notation (``penalty`` column of a ruling):

* ``25%``: a percentage of a top (the session's full board top at matchpoints);
* ``6 MP``, ``3 IMP``, ``1 VP``: an amount in that unit (IMPs and VPs belong to IMP forms);
* ``warning``: recorded, with a zero amount;
* ``suspended`` / ``disqualified`` (disciplinary only, Law 91B): the contestant is marked in
  the standings as the profile says (excluded, or shown without a place);
* empty: the profile's standard amount (EBU: 25 % of a top).

The disciplinary penalty is final at the Director's level: an appeals committee cannot
overrule it (Law 93B3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

UNITS: tuple[str, ...] = ("%", "MP", "IMP", "VP")
STATUSES: tuple[str, ...] = ("suspended", "disqualified")

_AMOUNT = re.compile(r"^(?P<n>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>%|MP|IMPS?|VPS?)$", re.IGNORECASE)


class PenaltyError(ValueError):
    """A penalty is not legal notation."""


@dataclass(frozen=True)
class Penalty:
    """A penalty: ``amount`` in ``unit`` (``%`` of a top, ``MP``, ``IMP``, ``VP``), or a
    ``warning`` (amount 0), or a disciplinary ``status`` (``suspended``/``disqualified``)."""

    amount: Fraction
    unit: str
    status: str | None = None

    @property
    def is_warning(self) -> bool:
        return self.amount == 0 and self.status is None


def parse_penalty(text: str | None, standard: str) -> Penalty:
    """Parse a penalty; empty means the profile's ``standard`` amount.

    >>> parse_penalty("25%", "25%")
    Penalty(amount=Fraction(25, 1), unit='%', status=None)
    >>> parse_penalty("", "6 MP").amount
    Fraction(6, 1)
    >>> parse_penalty("warning", "25%").is_warning
    True
    """
    t = (text or "").strip()
    if not t:
        t = standard
    low = t.lower()
    if low == "warning":
        return Penalty(Fraction(0), "MP")
    if low in STATUSES:
        return Penalty(Fraction(0), "MP", low)
    m = _AMOUNT.match(t)
    if not m:
        raise PenaltyError(
            f"'{text}' is not a penalty: write e.g. '25%', '6 MP', '3 IMP', '1 VP', 'warning', "
            "'suspended' or 'disqualified'"
        )
    unit = m["unit"].upper().rstrip("S") if m["unit"] != "%" else "%"
    amount = Fraction(m["n"])
    if amount < 0:
        raise PenaltyError("a penalty is a positive amount")
    return Penalty(amount, unit)


def matchpoint_deduction(p: Penalty, top: Fraction) -> Fraction:
    """The matchpoints a penalty deducts at a matchpoint event whose full board top is ``top``.

    >>> matchpoint_deduction(parse_penalty("25%", "25%"), Fraction(24))
    Fraction(6, 1)
    """
    if p.unit == "%":
        return p.amount * top / 100
    if p.unit == "MP":
        return p.amount
    raise PenaltyError(f"a penalty in {p.unit} cannot be applied at matchpoints")
