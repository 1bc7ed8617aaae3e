"""Playing a game: the session, the search manager, the clock, strength limit, WDL, book, bench."""
