"""Front-ends: protocol text in, Session calls out; no game logic of their own."""
