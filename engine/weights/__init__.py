"""The evaluation's shipped weights and how they are made.

default.params   every weight the core loads at import (ext/evaluate.pxi reads it: the values are
                 data, not code); EvalFile replaces them for one engine
provenance.json  how default.params was made: each step's command, revision, seed, inputs with
                 their hashes and generator, output hash (build.py writes it)
seed.params      where a rebuild starts: material alone, every table zero
spsa.spec        the SPSA specification of the rebuild's last step
build.py         the rebuild: `python3 -m pyrope.weights.build WORKDIR` (docs/tune.md)
"""
