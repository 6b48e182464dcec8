"""Reports rendered from the warehouse: HTML with Jinja2 templates (autoescape on) beside them,
plots by matplotlib embedded inline as SVG, so a report is one self-contained file that needs
no network to view.

* :mod:`pipelines.reports.audit`: ``traveller report audit`` (the laws & ethics committee's
  director-consistency audit) and ``traveller report transparency`` (the public version:
  directors pseudonymised, no player names or ID numbers).
* :mod:`pipelines.reports.plots`: the funnel plots and the Board-Appeal Ratio trend.
* :mod:`pipelines.reports.season`: ``traveller report season``, the season dashboard of the
  publication (activity per month and club, field size, adjusted-score and penalty rates, the
  Board-Appeal Ratio, rejected inputs), charts as inline PNG.
"""
