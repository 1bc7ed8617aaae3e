"""The learned evaluation's Python side: the net file format (netfile), loading it into the core
(loader), the input features (features), a NumPy forward pass of the quantised net (reference,
the oracle for the core's) and the format of the positions it learns from (dataset, which datagen
writes and the trainers read)."""
