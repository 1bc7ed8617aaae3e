"""Opening books in Polyglot's format: the core reads them (`pyrope._core.Book`), `player` picks
the move to play from one, `builder` makes and merges them, `command` is `pyrope book ...`."""
