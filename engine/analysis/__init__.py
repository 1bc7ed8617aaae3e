"""Game analysis: a chess game reviewed move by move by Pyrope's search (review), written out as an
annotated PGN, a summary and a graph (annotate), for `pyrope analyse` (command) and the web page."""
