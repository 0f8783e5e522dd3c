"""The network every learner fits: ``Q(s, a)``, one score a legal action (PyTorch).

:class:`QNet` is the layout :class:`eights.bots.learned.Model` runs in NumPy: the first
layer split in two (``relu(W_s s + b + W_a a)``: one product for the state, one small row a
legal action), then the hidden layers, then a scalar. :mod:`eights.learn.imitate` (fitting
a teacher's choices), :mod:`eights.learn.train` (self-play), :mod:`eights.learn.family` and
:mod:`eights.learn.teacher` (the search's values) all fit it; it imports none of them.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from eights.bots.learned import ACTION_FEATURES

__all__ = ["QNet"]


class QNet(nn.Module):
    """``Q(s, a)``: ``relu(W_s s + b + W_a a)``, then the hidden layers, then a scalar (the
    layout :class:`eights.bots.learned.Model` runs in NumPy)."""

    def __init__(self, state: int, hidden: tuple[int, ...],
                 action: int = ACTION_FEATURES) -> None:
        super().__init__()
        self.state = nn.Linear(state, hidden[0])
        self.action = nn.Linear(action, hidden[0], bias=False)
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in pairwise(hidden))
        self.out = nn.Linear(hidden[-1], 1)

    def forward(self, s: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        """Scores ``(G, W)`` of ``W`` actions ``a (G, W, F)`` in each of ``G`` states."""
        h = torch.relu(self.state(s)[:, None, :] + self.action(a))
        for layer in self.layers:
            h = torch.relu(layer(h))
        out: torch.Tensor = self.out(h)[..., 0]
        return out

    def flat(self, s: torch.Tensor, rows: torch.Tensor, codes: torch.Tensor,
             table: torch.Tensor) -> torch.Tensor:
        """Scores of the actions ``codes (K,)`` (their features in ``table``), action ``i`` in
        state ``rows[i]`` of ``s (G, S)``; each distinct action is projected once."""
        distinct, index = torch.unique(codes, return_inverse=True)
        h = torch.relu(self.state(s)[rows] + self.action(table[distinct])[index])
        for layer in self.layers:
            h = torch.relu(layer(h))
        out: torch.Tensor = self.out(h)[:, 0]
        return out

    def load_weights(self, weights: tuple[npt.NDArray[np.float32], ...]) -> None:
        """Take the weights of a model (:class:`~eights.bots.learned.Model`'s order)."""
        def t(a: npt.NDArray[np.float32]) -> torch.Tensor:
            return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32))
        with torch.no_grad():
            self.state.weight.copy_(t(weights[0].T))
            self.action.weight.copy_(t(weights[1].T))
            self.state.bias.copy_(t(weights[2]))
            for k, layer in enumerate(self.layers):
                assert isinstance(layer, nn.Linear)
                layer.weight.copy_(t(weights[3 + 2 * k].T))
                layer.bias.copy_(t(weights[4 + 2 * k]))
            self.out.weight.copy_(t(weights[-2].T))
            self.out.bias.copy_(t(weights[-1]))

    def weights(self) -> tuple[npt.NDArray[np.float32], ...]:
        """The weights in :class:`~eights.bots.learned.Model`'s order."""
        def np_(t: torch.Tensor) -> npt.NDArray[np.float32]:
            return t.detach().numpy().astype(np.float32).copy()
        out = [np_(self.state.weight.T), np_(self.action.weight.T), np_(self.state.bias)]
        for layer in self.layers:
            assert isinstance(layer, nn.Linear)
            out += [np_(layer.weight.T), np_(layer.bias)]
        return (*out, np_(self.out.weight.T), np_(self.out.bias))
