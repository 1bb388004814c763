"""Places in any ranking where equal results share a place (1, 1, 3): room standings,
duels, the personal boards and records all number their rows here. Pure Python."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def places[T](ordered: Iterable[T], key: Callable[[T], object]) -> list[tuple[int, T]]:
    """[(place, item)] for items already in ranking order: an item whose key equals the
    previous item's shares its place; the next different one takes its own position."""
    result: list[tuple[int, T]] = []
    previous = None
    for position, item in enumerate(ordered, start=1):
        current = key(item)
        result.append((result[-1][0] if result and current == previous else position, item))
        previous = current
    return result
