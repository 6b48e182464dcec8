"""The partitioning of every results asset: the session date."""


import dagster as dg

from pipelines.inbox import FIRST_DATE

#: One partition per session date; sessions of today and tomorrow (time zones) are accepted.
SESSION_DATES = dg.DailyPartitionsDefinition(start_date=FIRST_DATE.isoformat(), end_offset=2)
