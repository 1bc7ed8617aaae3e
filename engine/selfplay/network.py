"""The net as PyTorch trains it: `(768 K -> hidden) x 2 -> B` with shared input weights (K king
buckets of the InputLayout, B output buckets by material), its weight clipping, and its
quantisation to the integer net that nnue/netfile.py writes.

With more than one king bucket the input weights are factorised as trainers of such nets do: each
bucket's column of a feature is a shared column (the feature's in every bucket) plus the bucket's
own, so that what is learnt of a piece on a square in one bucket's positions serves every bucket;
the quantised net holds their sums.

Imported only by `pyrope train`, after it has checked that PyTorch is there.
"""
from __future__ import annotations

import numpy
import torch

from ..nnue import netfile
from ..nnue.netfile import PIECE_INPUTS, InputLayout

# Float weights are kept within these bounds so that the integers fit: an accumulator is the bias
# plus at most 32 feature weights, 33 * 1.98 * QA = 16,662 < 32,767 (int16); an output weight is
# clipped at 127 / QB, so its integer is at most 127 and the core's SCReLU product QA * w fits int16
# (255 * 127 = 32,385).
WEIGHT_LIMIT = 1.98
OUTPUT_LIMIT = 127 / netfile.QB


def shape(hidden: int, activation: str, layout: InputLayout, output_buckets: int) -> str:
    """A net's architecture in words: "256 screlu", "256 screlu, 16 king buckets mirrored, 8 outputs"."""
    words = [f"{hidden} {activation}"]
    if layout.count > 1 or layout.mirrored:
        words.append(f"{layout.count} king bucket{'s' * (layout.count > 1)}{' mirrored' * layout.mirrored}")
    if output_buckets > 1:
        words.append(f"{output_buckets} outputs")
    return ", ".join(words)


class Network(torch.nn.Module):
    def __init__(self, hidden: int, activation: str, layout: InputLayout = InputLayout(), output_buckets: int = 1):
        super().__init__()
        self.hidden, self.activation, self.layout, self.output_buckets = hidden, activation, layout, output_buckets
        # One row per feature plus the padding's (index layout.inputs), which padding_idx keeps at
        # zero and out of the sums.
        self.ft = torch.nn.EmbeddingBag(layout.inputs + 1, hidden, mode="sum", padding_idx=layout.inputs)
        self.factor = (torch.nn.EmbeddingBag(PIECE_INPUTS + 1, hidden, mode="sum", padding_idx=PIECE_INPUTS)
                       if layout.count > 1 else None)
        self.ft_bias = torch.nn.Parameter(torch.zeros(hidden))
        self.out = torch.nn.Linear(2 * hidden, output_buckets)
        with torch.no_grad():
            # As a dense Linear(768, hidden) starts. Larger starting weights (1/sqrt(32), a spread
            # of 0.5 over ~30 pieces) make the untrained net a hash of the position, which it then
            # memorises: on 8,000 positions the validation loss stalled at the untrained one. With a
            # factoriser the shared columns start there and the buckets' own at zero.
            bound = 1.0 / PIECE_INPUTS ** 0.5
            if self.factor is None:
                self.ft.weight.uniform_(-bound, bound)
            else:
                self.ft.weight.zero_()
                self.factor.weight.uniform_(-bound, bound)
                self.factor.weight[PIECE_INPUTS] = 0.0
            self.ft.weight[layout.inputs] = 0.0

    def accumulator(self, indices: torch.Tensor) -> torch.Tensor:
        total = self.ft(indices) + self.ft_bias
        if self.factor is not None:
            shared = torch.where(indices == self.layout.inputs, PIECE_INPUTS, indices % PIECE_INPUTS)
            total = total + self.factor(shared)
        return total

    def forward(self, own: torch.Tensor, other: torch.Tensor, bucket: torch.Tensor) -> torch.Tensor:
        """The output in units of SCALE centipawns (sigmoid of it: the side to move's expected score),
        each position's from its output `bucket`."""
        halves = [torch.clamp(self.accumulator(indices), 0.0, 1.0) for indices in (own, other)]
        if self.activation == "screlu":
            halves = [half * half for half in halves]
        return self.out(torch.cat(halves, dim=1)).gather(1, bucket.reshape(-1, 1)).squeeze(1)

    def input_weights(self) -> torch.Tensor:
        """(layout.inputs, hidden): each feature's whole column, the shared one added."""
        weights = self.ft.weight[:self.layout.inputs]
        if self.factor is None:
            return weights
        return weights + self.factor.weight[:PIECE_INPUTS].repeat(self.layout.count, 1)

    def load(self, net: netfile.Net, scale: int) -> None:
        """Start from a quantised net (fine-tuning): its integers over their fixed-point scales, the
        output layer moved from the net's centipawn scale to `scale`'s."""
        theirs = shape(net.hidden, net.activation, net.layout, net.output_buckets)
        ours = shape(self.hidden, self.activation, self.layout, self.output_buckets)
        if theirs != ours:
            raise ValueError(f"a {theirs} net, where this run trains {ours}")
        ratio = net.scale / scale

        def floats(values, divisor: float) -> torch.Tensor:
            return torch.from_numpy(numpy.asarray(values, dtype=numpy.float64) / divisor)
        with torch.no_grad():
            self.ft.weight[:self.layout.inputs] = floats(net.ft_weights, net.qa)
            if self.factor is not None:
                self.factor.weight.zero_()
            self.ft_bias[:] = floats(net.ft_bias, net.qa)
            self.out.weight[:] = floats(net.out_weights, net.qb / ratio).reshape(self.output_buckets, -1)
            self.out.bias[:] = floats(net.out_bias, net.qa * net.qb / ratio)

    def clip(self) -> None:
        """After each step: keep the weights that become int16 within their limits (with a
        factoriser, each bucket's own part so that the sums stay within them)."""
        with torch.no_grad():
            if self.factor is None:
                self.ft.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            else:
                self.factor.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
                shared = self.factor.weight[:PIECE_INPUTS].repeat(self.layout.count, 1)
                own = self.ft.weight[:self.layout.inputs]
                own.copy_(torch.clamp(own + shared, -WEIGHT_LIMIT, WEIGHT_LIMIT) - shared)
            self.ft_bias.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.out.weight.clamp_(-OUTPUT_LIMIT, OUTPUT_LIMIT)

    def quantised(self, scale: int) -> netfile.Net:
        qa, qb = netfile.QA, netfile.QB

        def integers(tensor: torch.Tensor, factor: float, dtype: str) -> numpy.ndarray:
            return numpy.round(tensor.detach().double().numpy() * factor).astype(dtype)
        return netfile.Net(self.hidden, self.activation,
                           integers(self.input_weights(), qa, "<i2"), integers(self.ft_bias, qa, "<i2"),
                           integers(self.out.weight.reshape(2 * self.output_buckets, self.hidden), qb, "<i2"),
                           integers(self.out.bias, qa * qb, "<i4"), qa, qb, scale, self.layout, self.output_buckets)
