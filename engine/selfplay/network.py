"""The net as PyTorch trains it: `(768 -> hidden) x 2 -> 1` with shared input weights, its weight
clipping, and its quantisation to the integer net that nnue/netfile.py writes.

Imported only by `pyrope train`, after it has checked that PyTorch is there.
"""
from __future__ import annotations

import numpy
import torch

from ..nnue import netfile
from ..nnue.features import INPUTS, PAD

# Float weights are kept within these bounds so that the integers fit: an accumulator is the bias
# plus at most 32 feature weights, 33 * 1.98 * QA = 16,662 < 32,767 (int16); an output weight is
# clipped at 127 / QB, so its integer is at most 127 and the core's SCReLU product QA * w fits int16
# (255 * 127 = 32,385).
WEIGHT_LIMIT = 1.98
OUTPUT_LIMIT = 127 / netfile.QB


class Network(torch.nn.Module):
    def __init__(self, hidden: int, activation: str):
        super().__init__()
        self.hidden, self.activation = hidden, activation
        # One row per feature plus PAD's, which padding_idx keeps at zero and out of the sums.
        self.ft = torch.nn.EmbeddingBag(INPUTS + 1, hidden, mode="sum", padding_idx=PAD)
        self.ft_bias = torch.nn.Parameter(torch.zeros(hidden))
        self.out = torch.nn.Linear(2 * hidden, 1)
        with torch.no_grad():
            # As a dense Linear(768, hidden) starts. Larger starting weights (1/sqrt(32), a spread
            # of 0.5 over ~30 pieces) make the untrained net a hash of the position, which it then
            # memorises: on 8,000 positions the validation loss stalled at the untrained one.
            bound = 1.0 / INPUTS ** 0.5
            self.ft.weight.uniform_(-bound, bound)
            self.ft.weight[PAD] = 0.0

    def forward(self, own: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
        """The output in units of SCALE centipawns (sigmoid of it: the side to move's expected score)."""
        halves = [torch.clamp(self.ft(indices) + self.ft_bias, 0.0, 1.0) for indices in (own, other)]
        if self.activation == "screlu":
            halves = [half * half for half in halves]
        return self.out(torch.cat(halves, dim=1)).squeeze(1)

    def load(self, net: netfile.Net, scale: int) -> None:
        """Start from a quantised net (fine-tuning): its integers over their fixed-point scales, the
        output layer moved from the net's centipawn scale to `scale`'s."""
        if (net.hidden, net.activation) != (self.hidden, self.activation):
            raise ValueError(f"a {net.hidden} {net.activation} net, where this run trains {self.hidden} {self.activation}")
        ratio = net.scale / scale

        def floats(values, divisor: float) -> torch.Tensor:
            return torch.from_numpy(numpy.asarray(values, dtype=numpy.float64) / divisor)
        with torch.no_grad():
            self.ft.weight[:INPUTS] = floats(net.ft_weights, net.qa)
            self.ft_bias[:] = floats(net.ft_bias, net.qa)
            self.out.weight[:] = floats(net.out_weights, net.qb / ratio).reshape(1, -1)
            self.out.bias[:] = net.out_bias * ratio / (net.qa * net.qb)

    def clip(self) -> None:
        """After each step: keep the weights that become int16 within their limits."""
        with torch.no_grad():
            for parameter in (self.ft.weight, self.ft_bias):
                parameter.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.out.weight.clamp_(-OUTPUT_LIMIT, OUTPUT_LIMIT)

    def quantised(self, scale: int) -> netfile.Net:
        qa, qb = netfile.QA, netfile.QB

        def integers(tensor: torch.Tensor, factor: float, dtype: str) -> numpy.ndarray:
            return numpy.round(tensor.detach().double().numpy() * factor).astype(dtype)
        return netfile.Net(self.hidden, self.activation,
                           integers(self.ft.weight[:INPUTS], qa, "<i2"), integers(self.ft_bias, qa, "<i2"),
                           integers(self.out.weight.reshape(2, self.hidden), qb, "<i2"),
                           int(integers(self.out.bias, qa * qb, "<i8")[0]), qa, qb, scale)
