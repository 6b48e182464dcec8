"""Traveller's engine: the Laws, the profiles, the readers, the stages, the command line.

Polars allocates with jemalloc, which by default keeps the memory of every finished step for
reuse: a nightly run would hold its peak to the end, and a process that scores several ranges
of dates one after another would hold the sum of their peaks. Freed pages are given back to
the system after 100 ms instead (a background thread, off the scoring's path), unless the
environment already configures the allocator. It must be set before Polars is first imported,
hence here.
"""

import os as _os

#: How Polars' allocator (jemalloc) gives freed memory back: after 100 ms.
ALLOCATOR_CONF = "dirty_decay_ms:100,muzzy_decay_ms:0,background_thread:true"

_os.environ.setdefault("_RJEM_MALLOC_CONF", ALLOCATOR_CONF)
