"""`python3 -m pyrope` and the built executable start here, as the `pyrope` command does."""
import sys

from pyrope.cli import main

if __name__ == "__main__":
    if getattr(sys, "frozen", False):
        # In the built executable a worker process of a job (jobs.py spawns them) starts this same
        # program; freeze_support() runs the worker there instead of the command line.
        import multiprocessing
        multiprocessing.freeze_support()
    sys.exit(main())
