"""The job runner for long work -- datagen, tuning, evolution, matches on Ray: a job's tasks run on
local worker processes or on Ray.

A job is a stream of small idempotent tasks named by whole numbers. Workers run `job.perform(id)`;
this process hands each result to `job.save(id, result)` as it arrives (the job writes its output
durably there) and then appends the record save returns to a journal (journal.py). Running the same
job again reads the journal back and skips the finished ids, so a killed run, or a worker that
dies, costs only the tasks in flight. The runner knows nothing about chess: datagen's positions,
the bouts of tuning and evolution and a match's games (match/runner.py, which keeps its own
journal and passes none here) are jobs.

A job provides (see the Job protocol):
  unit, total      what the progress bar counts and how many are wanted (e.g. "positions", 10**6)
  fingerprint()    what defines its tasks: a journal begun by another job is refused
  task_ids()       candidate ids in the order to run them; may be endless
  perform(id)      runs in a worker: must be deterministic for its id; the job object is pickled
                   to the workers once, so it should be small
  save(id, result) runs here: writes the output, returns a JSON-able record with "count" (units)

Tasks are handed out in id order while the units done plus those expected from the tasks in flight
fall short of `total`, so the finished ids are always a prefix of task_ids() plus the tasks in flight.
A task whose worker dies (a killed process, a lost Ray node) is run again, up to MAX_ATTEMPTS times;
a task that raises ends the job with its error (a deterministic task would fail again).

Backends: LocalWorkers(n) starts n processes (spawned: no state inherited from this process);
RayWorkers(address) sends tasks to a Ray cluster with Ray's own retries off (max_retries=0), so
that every lost task comes back here and is retried the same way as a local one. Ray is imported
only by RayWorkers.
"""
from __future__ import annotations

import argparse
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from . import console
from .journal import Journal

MAX_ATTEMPTS = 3
CONNECT_TIMEOUT = 10.0      # seconds to reach a Ray cluster's address before giving up


class JobError(RuntimeError):
    """A job that cannot go on: a task raised, or was lost MAX_ATTEMPTS times."""


class Job(Protocol):
    unit: str
    total: int

    def fingerprint(self) -> dict: ...

    def task_ids(self) -> Iterable[int]: ...

    def perform(self, task_id: int) -> Any: ...

    def save(self, task_id: int, result: Any) -> dict: ...


@dataclass
class Outcome:
    """What became of a task: a result, an error (a sentence), or lost with its worker."""
    task_id: int
    result: Any = None
    error: str | None = None
    lost: bool = False


class Backend(Protocol):
    """Where tasks run: LocalWorkers or RayWorkers."""
    capacity: int       # tasks it runs at once

    def start(self, job: Job) -> None: ...     # again for the next job of a run (keep_backend)

    def submit(self, task_id: int) -> None: ...

    def wait(self) -> list[Outcome]: ...       # blocks until at least one task in flight ends

    def close(self) -> None: ...               # ends the workers; tasks in flight are abandoned


def open_journal(job: Job, path: str) -> Journal:
    """The journal at `path`, read; ValueError if it was begun by a job with another fingerprint."""
    journal = Journal(path)
    journal.check(job.fingerprint(), "job", "give another output directory")
    return journal


def finished_records(journal: Journal) -> dict[int, dict]:
    """The last record of each finished task id in a journal (a task run again is journaled again)."""
    return {record["task"]: record for record in journal.records}


def run_job(job: Job, journal_path: str | None, backend: Backend, *, redo: Iterable[int] = (),
            desc: str | None = None, keep_backend: bool = False, bar=None,
            until: Callable[[], bool] = lambda: False) -> dict[int, dict]:
    """Run `job` until `total` units are done, its ids run out or `until()` is true (then the tasks in
    flight are abandoned); returns the records of every finished task, old and new. Ids in `redo` are
    run again even if journaled (the job found their output missing). With no `journal_path` the
    job keeps its own record in `save` and every id it offers is run. KeyboardInterrupt ends the
    workers and propagates; what was saved stays.
    With `keep_backend` the backend stays open when the job ends well, for the next job of a run
    made of several (evolution's rounds, SPSA's batches): the caller closes it; such a run passes
    its own progress `bar`, which the job updates and leaves open."""
    journal = open_journal(job, journal_path) if journal_path is not None else None
    done = finished_records(journal) if journal is not None else {}
    redo = [task_id for task_id in redo if done.pop(task_id, None) is not None]
    count = sum(record["count"] for record in done.values())
    ids = (task_id for task_id in job.task_ids() if task_id not in done and task_id not in redo)
    # Redone tasks go first and whatever the count: their output was promised by the journal, even
    # when the other tasks alone now reach the total.
    retry: list[int] = redo[::-1]
    attempts: dict[int, int] = {}
    in_flight: set[int] = set()
    own_bar = bar is None
    if own_bar:
        bar = console.progress(total=job.total, initial=min(count, job.total), unit=" " + job.unit, desc=desc,
                               smoothing=0.05)
    ended_well = False
    try:
        if journal is not None:
            journal.open()
        backend.start(job)
        while not until():
            # Units expected from the tasks in flight: the mean of the finished ones (none known yet: 0,
            # so that the first tasks fill every worker).
            mean = count / len(done) if done else 0
            while len(in_flight) < backend.capacity and (retry or count + mean * len(in_flight) < job.total):
                task_id = retry.pop() if retry else next(ids, None)
                if task_id is None:
                    break
                backend.submit(task_id)
                in_flight.add(task_id)
            if not in_flight:
                break
            for outcome in backend.wait():
                in_flight.discard(outcome.task_id)
                if outcome.error is not None:
                    raise JobError(f"task {outcome.task_id} failed: {outcome.error}")
                if outcome.lost:
                    attempts[outcome.task_id] = attempts.get(outcome.task_id, 1) + 1
                    if attempts[outcome.task_id] > MAX_ATTEMPTS:
                        raise JobError(f"task {outcome.task_id} was lost {MAX_ATTEMPTS} times: "
                                       "its worker died each time")
                    retry.append(outcome.task_id)
                    continue
                record = {"task": outcome.task_id, **job.save(outcome.task_id, outcome.result)}
                if journal is not None:
                    journal.append(record)
                done[outcome.task_id] = record
                count += record["count"]
                bar.update(record["count"])
        ended_well = not in_flight      # stopped by until() with tasks in flight: abandon them
    finally:
        if not (keep_backend and ended_well):
            backend.close()
        if journal is not None:
            journal.close()
        if own_bar:
            bar.close()
    return done


def _serve(job: Job, connection) -> None:
    """A local worker: run the task ids it is sent until it is sent None or the pipe closes."""
    # Ctrl-C reaches the whole process group; the runner alone decides what happens then.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task_id = connection.recv()
        except EOFError:
            return
        if task_id is None:
            return
        try:
            connection.send(Outcome(task_id, result=job.perform(task_id)))
        except Exception as error:
            connection.send(Outcome(task_id, error=console.sentence(error)))


class LocalWorkers:
    """`workers` processes on this machine, each running one task at a time; a worker that dies is
    replaced when a task next needs one."""

    def __init__(self, workers: int):
        if workers < 1:
            raise ValueError(f"a job needs 1 worker or more, not {workers}")
        self.capacity = workers
        self.context = multiprocessing.get_context("spawn")
        self.job = None
        self.idle: list = []
        self.busy: dict = {}        # connection -> (process, task id)

    def start(self, job: Job) -> None:
        if job is not self.job:
            self.close()            # idle workers serve the last job
        self.job = job

    def submit(self, task_id: int) -> None:
        if self.idle:
            process, connection = self.idle.pop()
        else:
            connection, child_end = self.context.Pipe()
            process = self.context.Process(target=_serve, args=(self.job, child_end), daemon=True)
            process.start()
            child_end.close()       # so that the worker's death closes the pipe
        connection.send(task_id)
        self.busy[connection] = (process, task_id)

    def wait(self) -> list[Outcome]:
        """Block until at least one task ends; a worker that died returns its task as lost."""
        ready = multiprocessing.connection.wait(list(self.busy))
        outcomes = []
        for connection in ready:
            process, task_id = self.busy.pop(connection)
            try:
                outcomes.append(connection.recv())
                self.idle.append((process, connection))
            except (EOFError, OSError):
                outcomes.append(Outcome(task_id, lost=True))
                connection.close()
                process.join()
        return outcomes

    def close(self) -> None:
        """End every worker: idle ones when told, busy ones at once (their tasks are abandoned)."""
        for process, connection in self.idle:
            try:
                connection.send(None)
            except OSError:         # it died while idle
                pass
        for process, _ in self.busy.values():
            process.terminate()
        busy = [(process, connection) for connection, (process, _) in self.busy.items()]
        for process, connection in self.idle + busy:
            process.join()
            connection.close()
        self.idle, self.busy = [], {}


def _perform(job: Job, task_id: int) -> Any:
    return job.perform(task_id)


class RayWorkers:
    """Tasks on a Ray cluster: `address` is a cluster's address, "auto" for the cluster this machine
    belongs to, or "local" for a new single-machine instance with `local_cpus` CPUs. Every node
    needs the same pyrope installed."""

    def __init__(self, address: str, local_cpus: int = 1):
        try:
            import ray
        except ImportError:
            raise JobError("--ray needs Ray, which is not installed: pip install 'pyrope[cluster]'") from None
        self.ray = ray
        if address == "local":
            ray.init(num_cpus=local_cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        else:
            self._join(address)
        # One task per CPU the cluster has now; nodes that join later are used as tasks are retried.
        self.capacity = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.refs: dict = {}        # object ref -> task id

    def _join(self, address: str) -> None:
        """ray.init on a cluster, or a JobError within CONNECT_TIMEOUT when none answers there (Ray
        itself would wait minutes for a cluster that is not there: its port is knocked on first)."""
        host, colon, port = address.rpartition(":")
        if colon and port.isdigit():
            try:
                socket.create_connection((host or "127.0.0.1", int(port)), timeout=CONNECT_TIMEOUT).close()
            except OSError as error:
                raise JobError(f"no Ray cluster answers at {address} ({error.strerror or error}): "
                               "start one with `ray start --head`, or use --ray local") from None
        try:
            self.ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except ConnectionError as error:
            raise JobError(f"no Ray cluster to join at {address}: {error}") from None

    def start(self, job: Job) -> None:
        self.job_ref = self.ray.put(job)
        self.remote = self.ray.remote(max_retries=0, num_cpus=1)(_perform)

    def submit(self, task_id: int) -> None:
        self.refs[self.remote.remote(self.job_ref, task_id)] = task_id

    def wait(self) -> list[Outcome]:
        from ray.exceptions import RayError, RayTaskError
        ready, _ = self.ray.wait(list(self.refs), num_returns=1)
        outcomes = []
        for ref in ready:
            task_id = self.refs.pop(ref)
            try:
                outcomes.append(Outcome(task_id, result=self.ray.get(ref)))
            except RayTaskError as error:       # the task itself raised
                outcomes.append(Outcome(task_id, error=console.sentence(error.cause or error)))
            except RayError:                    # its worker or node died, or its result was lost
                outcomes.append(Outcome(task_id, lost=True))
        return outcomes

    def close(self) -> None:
        for ref in self.refs:
            self.ray.cancel(ref, force=True)
        self.refs = {}
        self.ray.shutdown()


def add_backend_arguments(parser: argparse.ArgumentParser, tasks: str) -> None:
    """--workers and --ray, as every command on the runner takes them (`tasks`: what they run)."""
    parser.add_argument("--workers", type=console.positive_int, default=os.cpu_count() or 1,
                        help="local worker processes (default: every core, %(default)s); with --ray local, its CPUs")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help=f"run the {tasks} on a Ray cluster: its address, auto, or local (needs pyrope[cluster])")


def backend_from(args: argparse.Namespace) -> tuple[Backend, str]:
    """The backend the arguments ask for, and where it runs, in words."""
    if args.ray:
        return RayWorkers(args.ray, args.workers), f"Ray at {args.ray}"
    return LocalWorkers(args.workers), "local"
