"""The lab: jobs made of many self-play games and what learns from them -- data generation
(datagen), the net's training (train, trainer, trainset), the weights' tuning (tune: Texel, SPSA)
and evolution (evolve), on one job runner (jobs). It depends on the engine; the engine never
imports it (tests/package/test_layers.py). The match runner that plays engines against each other is
pyrope.match."""
