"""Random nets for the tests that load one into the core (tests/chess/test_nnue.py, tests/lab/test_datagen.py)."""
import numpy

from pyrope.nnue import netfile


def random_net(hidden, activation="screlu", seed=1, out_range=127, layout="none", outputs=1):
    """Weights in the ranges `pyrope train` produces (clipped at 1.98: |input| <= 504, |output| <= 127),
    so that accumulators stay inside int16 as they do for a trained net; `layout` names one of
    netfile.LAYOUTS, `outputs` the output buckets."""
    rng = numpy.random.default_rng(seed)
    shape = netfile.LAYOUTS[layout]
    return netfile.Net(hidden, activation,
                       rng.integers(-504, 505, (shape.inputs, hidden)).astype(numpy.int16),
                       rng.integers(-504, 505, hidden).astype(numpy.int16),
                       rng.integers(-out_range, out_range + 1, (2 * outputs, hidden)).astype(numpy.int16),
                       tuple(int(bias) for bias in rng.integers(-2 ** 20, 2 ** 20, outputs)),
                       layout=shape, output_buckets=outputs)
