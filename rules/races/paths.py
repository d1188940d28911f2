"""The one shortest-path search of Junkyard Races: every distance on a track comes from here.

States are anything hashable (a cell and facing, with a lap state or the crossings done); the caller
says where a state leads and at what cost. Searching forward gives distances from the sources;
searching over predecessors gives distances *to* the sources (how far a state is from the line).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

S = TypeVar("S", bound=Hashable)
N = TypeVar("N", int, float)


def shortest_paths(
    sources: Mapping[S, N],
    edges: Callable[[S], Iterable[tuple[S, N]]],
    goal: S | None = None,
) -> tuple[dict[S, N], dict[S, S | None]]:
    """Dijkstra from ``sources`` (state → starting cost) over ``edges`` (state → (next state, cost)).

    Returns each reached state's least cost and the state it was reached from (``None`` for a source),
    so a path can be read back. With a ``goal`` the search stops once the goal's cost is final. Among
    equal costs the state reached first is kept, so the answers are the same on every run.
    """
    dist: dict[S, N] = dict(sources)
    prev: dict[S, S | None] = dict.fromkeys(dist)
    heap = [(d, i, s) for i, (s, d) in enumerate(dist.items())]
    heapq.heapify(heap)
    counter = len(heap)
    while heap:
        d, _, state = heapq.heappop(heap)
        if d > dist[state]:
            continue
        if goal is not None and state == goal:
            break
        for nxt, cost in edges(state):
            nd = d + cost
            old = dist.get(nxt)
            if old is None or nd < old:
                dist[nxt] = nd
                prev[nxt] = state
                counter += 1
                heapq.heappush(heap, (nd, counter, nxt))
    return dist, prev


def path_to(prev: Mapping[S, S | None], end: S) -> list[S]:
    """The states from a source to ``end``, read back from :func:`shortest_paths`' ``prev``."""
    path: list[S] = []
    node: S | None = end
    while node is not None:
        path.append(node)
        node = prev[node]
    path.reverse()
    return path
