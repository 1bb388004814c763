"""The cycle collector's settings for a server process (issue 21, --rooms 1000).

A daphne process holding 5,000 sockets tracks about 1.2 million objects (per socket: the
twisted transport, autobahn's protocol, the consumer with ~24 coroutines and 6 tasks, its
scope and profile), and a full (generation 2) collection walks all of them: 0.5-1.0 s with
the event loop stopped, every ~20 s at 500 entries/s, which was the whole p99 at 1,000 rooms
(p99 0.5-1.1 s, every stall a full collection in a loop-lag trace). Two settings take it away:

- `gc.freeze()` once the application is built: the modules, Django's and the templates'
  objects (~128,000) live as long as the process, so no collection walks them again.
- A young generation of 50,000 allocations instead of 2,000: a move's short-lived objects
  (the message, its tasks and futures, the rendered standings) are mostly gone before a
  collection finds them, so far fewer are promoted to the old generation, and the full
  collection (which runs once the promoted count reaches a quarter of the old generation)
  comes rarely. Cycles are still collected: a closed socket's in the next full collection.

Applied by config/asgi.py, so by every process that serves the site."""

import gc

YOUNG_THRESHOLD = 50_000  # CPython's default is 2,000
OLDER_THRESHOLDS = (10, 10)  # CPython's defaults: collections of a generation before the next


def tune_for_server() -> None:
    gc.collect()  # what import-time work left behind goes now, not into the permanent set
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
