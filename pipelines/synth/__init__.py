"""The generator of synthetic federation data — not the engine.

Nothing in the engine (``pipelines/laws``, ``scoring``, ``formats``, ``audit``, ``publish``, the
stages) imports this package; it imports the engine's rules only to draw data the Laws accept.

* :mod:`pipelines.synth.pairs`: the pairs evenings (Howell and Mitchell movements, results
  around each board's par, irregularities), the directors' logs (rulings, appeals, planted
  effects) and the large result frames of the benchmark.
* :mod:`pipelines.synth.forms`: the other forms (teams round robin, Swiss, knockout, Butler and
  cross-IMP pairs, an individual) and their own rulings; built on :mod:`~pipelines.synth.pairs`.
* :mod:`pipelines.synth.inbox`: :func:`~pipelines.synth.inbox.generate_inbox`, the whole inbox
  written as files from both (``traveller generate``, ``make sample``).
* :mod:`pipelines.synth.season`: the audit's inputs read straight from a generated inbox,
  without the warehouse (the many-seed tests of the audit).
"""
