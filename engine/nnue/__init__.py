"""The learned evaluation's Python side: the net file format (netfile), the input features
(features) and a NumPy forward pass of the quantised net (reference), the oracle for the core's."""
