"""A small max-flow (Dinic) with capacities that can be raised between runs.

The payment solver runs it in phases: it opens some edges, pushes as much flow as it can,
opens more and continues from the flow it has.  Two facts make phases meaningful: an
augmenting path never lowers the flow on an edge leaving the source or entering the sink
(it starts at one and ends at the other), and continuing from any valid flow still reaches a
maximum flow.  Dinic runs in O(V^2 E) per call whatever the capacities are.
"""

from __future__ import annotations

from collections import deque


class FlowNetwork:
    """Directed graph with integer capacities; edge ``e`` and its residual twin ``e ^ 1``."""

    def __init__(self, nodes: int):
        self.adjacency: list[list[int]] = [[] for _ in range(nodes)]
        self.head: list[int] = []  # edge -> node it points to
        self.residual: list[int] = []
        self.capacity: list[int] = []

    def add_edge(self, u: int, v: int, capacity: int = 0) -> int:
        """Add u -> v and return its id."""
        e = len(self.head)
        self.head += [v, u]
        self.residual += [capacity, 0]
        self.capacity += [capacity, 0]
        self.adjacency[u].append(e)
        self.adjacency[v].append(e + 1)
        return e

    def raise_capacity(self, e: int, capacity: int) -> None:
        """Set edge ``e``'s capacity to ``capacity``, which may not be below its flow."""
        if capacity < self.flow(e):
            raise ValueError("cannot lower a capacity below the flow it carries")
        self.residual[e] += capacity - self.capacity[e]
        self.capacity[e] = capacity

    def flow(self, e: int) -> int:
        return self.capacity[e] - self.residual[e]

    def max_flow(self, source: int, sink: int) -> int:
        """Augment the current flow to a maximum one; return how much was added."""
        added = 0
        while True:
            level = self._levels(source, sink)
            if level[sink] < 0:
                return added
            cursor = [0] * len(self.adjacency)
            while True:
                pushed = self._push(source, sink, 1 << 62, level, cursor)
                if not pushed:
                    break
                added += pushed

    def _levels(self, source: int, sink: int) -> list[int]:
        level = [-1] * len(self.adjacency)
        level[source] = 0
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for e in self.adjacency[u]:
                v = self.head[e]
                if self.residual[e] > 0 and level[v] < 0:
                    level[v] = level[u] + 1
                    queue.append(v)
        return level

    def _push(self, u: int, sink: int, limit: int, level: list[int], cursor: list[int]) -> int:
        if u == sink:
            return limit
        edges = self.adjacency[u]
        while cursor[u] < len(edges):
            e = edges[cursor[u]]
            v = self.head[e]
            if self.residual[e] > 0 and level[v] == level[u] + 1:
                pushed = self._push(v, sink, min(limit, self.residual[e]), level, cursor)
                if pushed:
                    self.residual[e] -= pushed
                    self.residual[e ^ 1] += pushed
                    return pushed
            cursor[u] += 1
        return 0
