"""Pausing CPython's cyclic garbage collector while many long-lived, acyclic objects are built."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector paused (restored afterwards if it was on).

    Nothing is caught: any exception from the body, ``KeyboardInterrupt`` (Ctrl-C) included,
    propagates unchanged after the collector is switched back on, so a long run stays interruptible.

    Filling a process-wide cache or building one Score per segment allocates tens of thousands of
    containers; every collection those allocations trigger traverses every object of the process (a
    loaded NLTK WordNet is ~10^5 of them) and reclaims nothing, since none of them forms a cycle."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
