"""`python3 -m pyrope` and the built executable start here, as the `pyrope` command does."""
import sys

from pyrope.cli import main

if __name__ == "__main__":
    sys.exit(main())
