"""Pure rules of the Laws of Duplicate Bridge on scoring. No Dagster, no I/O.

Each module holds one group of rules, states it in its docstrings and cites
the Law (2017 edition unless stated):

* :mod:`.board`       Law 2: dealer and vulnerability of a board number.
* :mod:`.contract`    Law 77: parsing a contract, the score of a contract result.
* :mod:`.artificial`  Law 12C2: table-level artificial scores (Av+, Av, Av-).
* :mod:`.matchpoints` Law 78A: matchpoints, frequency form; Neuberg and linear factoring.
* :mod:`.exact`       exact rational arithmetic on integer columns (ties must tie).
* :mod:`.rounding`    the rounding rules regulations apply to displayed figures.
* :mod:`.ranking`     places with shared ties and regulation tie-breaks.
* :mod:`.vocabulary`  the directors' vocabulary: ruling kinds, appeal outcomes, and the
                      groups of kinds the Laws treat alike (StrEnums, defined once).
"""
