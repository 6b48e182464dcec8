"""The director-consistency audit: penalty and appeal statistics, funnel plots, shrinkage.

* :mod:`pipelines.audit.funnel`: funnel-plot limits (exact binomial, Spiegelhalter 2005),
  the over-dispersion factor and the limits it widens.
* :mod:`pipelines.audit.shrinkage`: empirical-Bayes beta-binomial shrunken rates.
* :mod:`pipelines.audit.marts`: the marts ``penalty_stats``, ``appeal_stats``,
  ``director_audit`` and ``ruling_discrepancies`` as a pure function of the rulings, appeals,
  events, boards played and adjustments.

The same inputs read from a generated inbox, for the many-seed tests, are
:mod:`pipelines.synth.season` (the generator is not the engine).

No rankings or league tables are produced: a director is compared with the target, never
with another director's place.
"""
