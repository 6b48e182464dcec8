"""Frame-level stages of the engine, pure Polars (no Dagster, no DuckDB).

* :mod:`.events`    resolve each event session's details (events.csv over file headers, defaults).
* :mod:`.validate`  raw canonical rows -> typed, checked rows + rejected rows (Law 77 check).
* :mod:`.score`     validated rows -> matchpoints per table result under the event's profile.
* :mod:`.standings` scored rows -> session and event standings with exact ranks.
"""
