"""The NNUE trainer behind `pyrope train` (train.py): fit the net to datagen's positions with
PyTorch on the CPU, and export it quantised.

Writes NET (the integer net, docs/nnue.md), NET's stem + .png (training and validation loss per
epoch), + .json (provenance: command, commit, seed, input hashes, data volume, settings, losses,
time, output hash) and checkpoints in --checkpoints (model, optimiser, loss history, the step
within the epoch) at each epoch's end and every --checkpoint-steps batches: `--resume` continues
from the newest exactly where an uninterrupted run would be, because nothing random happens after
the seeded initialisation except each epoch's shuffle, which is drawn from (seed, epoch).
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import math
import os
import shlex
import sys
import time

import numpy
import torch

from .. import console
from ..data import revision
from ..nnue import netfile, reference
from ..nnue.features import features, output_buckets
from . import trainset
from .network import Network

FINGERPRINT = ["hidden", "activation", "king_buckets", "output_buckets", "wdl", "scale", "epochs", "batch_size",
               "lr", "lr_end", "weight_decay", "validation", "seed", "mirror"]
PARTIAL = "partial.pt"      # the checkpoint within an epoch, removed once the epoch's own is written
CHECK_POSITIONS = 2000      # validation positions on which the quantised net is compared with the float one


def learning_rate(args: argparse.Namespace, progress: float) -> float:
    """Cosine decay from --lr to --lr-end as `progress` goes from 0 to 1 over the whole run."""
    return args.lr_end + (args.lr - args.lr_end) * 0.5 * (1.0 + math.cos(math.pi * progress))


def sidecar(output: str, suffix: str) -> str:
    return os.path.splitext(output)[0] + suffix


def architecture(args: argparse.Namespace) -> tuple[netfile.InputLayout, int]:
    """The run's input layout and output bucket count."""
    return netfile.LAYOUTS[args.king_buckets], args.output_buckets


def batches(records: numpy.ndarray, targets: numpy.ndarray, size: int, layout: netfile.InputLayout,
            buckets: int, order: numpy.ndarray | None = None, mirrored: numpy.ndarray | None = None):
    """(own features, other features, output buckets, targets) tensors for each batch of `records`,
    or of the records `order` lists, in that order; where `mirrored` (by position in `order`) is
    true, the position is seen with its files swapped."""
    for start in range(0, len(records) if order is None else len(order), size):
        chosen = slice(start, start + size) if order is None else order[start:start + size]
        batch = records[chosen]
        own, other = features(batch, layout, None if mirrored is None else mirrored[start:start + size])
        yield (torch.from_numpy(own), torch.from_numpy(other), torch.from_numpy(output_buckets(batch, buckets)),
               torch.from_numpy(targets[chosen]))


def mean_loss(model, records: numpy.ndarray, targets: numpy.ndarray, size: int) -> float:
    total = 0.0
    with torch.no_grad():
        for own, other, bucket, target in batches(records, targets, size, model.layout, model.output_buckets):
            total += float(((torch.sigmoid(model(own, other, bucket)) - target) ** 2).sum())
    return total / max(1, len(records))


def fingerprint(args: argparse.Namespace, shards: dict, init: dict | None) -> dict:
    fields = {**{key: getattr(args, key) for key in FINGERPRINT}, "shards": sorted(shards.values())}
    if init is not None:        # absent without --init, so that older checkpoints still resume
        fields["init"] = init["sha256"]
    return fields


def starting_net(args: argparse.Namespace) -> tuple[netfile.Net, dict] | tuple[None, None]:
    """--init's net and its record (file name, SHA-256), or (None, None) for random weights."""
    if args.init is None:
        return None, None
    data = netfile.read_bytes(args.init)
    return netfile.from_bytes(data, args.init), {"path": os.path.basename(args.init),
                                                 "sha256": hashlib.sha256(data).hexdigest()}


def resume_state(args: argparse.Namespace, directory: str, expected: dict):
    """The newest checkpoint's contents (an epoch's, or PARTIAL's from within the next epoch), or
    None for a fresh start; InputError when the directory holds checkpoints and --resume was not
    given, or the checkpoint is of other settings or data."""
    found = sorted(glob.glob(os.path.join(directory, "epoch-*.pt")))[-1:] + glob.glob(os.path.join(directory, PARTIAL))
    if not found:
        if args.resume:
            print(f"train: no checkpoint in {directory}; starting from the beginning")
        return None
    if not args.resume:
        raise console.InputError(f"{directory} already holds checkpoints: give --resume to continue, "
                                 "or another --checkpoints")
    # A run killed between writing an epoch's checkpoint and removing PARTIAL leaves an older PARTIAL.
    path, state = max(((path, torch.load(path, weights_only=False)) for path in found),
                      key=lambda item: (len(item[1]["history"]), item[1]["progress"].get("step", 0)))
    differing = [key for key in expected if state["fingerprint"].get(key) != expected[key]]
    if differing:
        raise console.InputError(f"{path} was made with other {', '.join(differing).replace('shards', 'data')}; "
                                 f"resume with the same settings and data, or use another --checkpoints")
    steps = state["progress"].get("step")
    print(f"train: resuming after epoch {len(state['history'])}"
          + (f" and {steps} steps of the next" if steps else "") + f" from {path}")
    return state


def save_checkpoint(path: str, state: dict) -> None:
    torch.save(state, path + ".tmp")
    os.replace(path + ".tmp", path)      # a run killed while saving leaves the previous checkpoint whole


def plot(history: list[dict], untrained: float, path: str, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")       # no screen needed
    from matplotlib import pyplot
    figure, axes = pyplot.subplots(figsize=(6, 4), dpi=100)
    epochs = [entry["epoch"] for entry in history]
    axes.plot(epochs, [entry["train_loss"] for entry in history], marker="o", label="training (mean over the epoch)")
    axes.plot([0] + epochs, [untrained] + [entry["validation_loss"] for entry in history], marker="o",
              label="validation (epoch 0: untrained)")
    axes.set_xlabel("epoch")
    axes.set_ylabel("MSE of the expected score")
    axes.set_title(f"pyrope train: {title}")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def quantisation_error(model, net: netfile.Net, records: numpy.ndarray, scale: int) -> float:
    """Mean |float - quantised| evaluation in centipawns over the first CHECK_POSITIONS records."""
    sample = records[:CHECK_POSITIONS]
    if not len(sample):
        return 0.0
    own, other = features(sample, model.layout)
    bucket = output_buckets(sample, model.output_buckets)
    with torch.no_grad():
        floats = model(torch.from_numpy(own), torch.from_numpy(other), torch.from_numpy(bucket)).double().numpy() * scale
    return float(numpy.abs(floats - reference.evaluate_records(net, sample)).mean())


def train(args: argparse.Namespace) -> None:
    """The whole run that `pyrope train` describes: train (or resume), then write NET and its records."""
    torch.set_num_threads(args.threads)
    directory = args.checkpoints or sidecar(args.output, ".checkpoints")
    data = trainset.load(args.data, args.validation, report=lambda text: print(f"train: {text}"))
    init, init_record = starting_net(args)
    expected = fingerprint(args, data.shards, init_record)
    os.makedirs(directory, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    state = resume_state(args, directory, expected)
    train_targets = trainset.targets(data.train, args.wdl, args.scale)
    validation_targets = trainset.targets(data.validation, args.wdl, args.scale)
    print(f"train: {len(data.train)} training and {len(data.validation)} validation positions from "
          f"{len(data.shards)} shards ({len(data.skipped)} skipped); hidden {args.hidden} {args.activation}, "
          f"wdl {args.wdl}, {args.epochs} epochs of batches of {args.batch_size}, {args.threads} threads", flush=True)

    torch.manual_seed(args.seed)
    model = Network(args.hidden, args.activation, *architecture(args))
    if init is not None:
        try:
            model.load(init, args.scale)
        except ValueError as error:
            raise console.InputError(f"--init {args.init} is {error}") from None
        print(f"train: starting from {args.init} (sha256 {init_record['sha256'][:16]}...)")
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    # The untrained net's validation loss (--init's net's): the mark that training must beat.
    untrained = mean_loss(model, data.validation, validation_targets, args.batch_size)
    history, progress = [], {}
    if state is not None:
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        # progress: within the epoch a PARTIAL checkpoint stopped in, its step, summed loss and seconds.
        history, progress = state["history"], state["progress"]

    def checkpoint(name: str, **progress) -> None:
        save_checkpoint(os.path.join(directory, name), {
            "history": history, "progress": progress, "model": model.state_dict(),
            "optimiser": optimiser.state_dict(), "fingerprint": expected})

    for epoch in range(len(history), args.epochs):
        total, seconds = train_epoch(args, model, optimiser, data.train, train_targets, epoch, progress,
                                     checkpoint)
        progress = {}
        history.append({"epoch": epoch + 1, "train_loss": total / len(data.train),
                        "validation_loss": mean_loss(model, data.validation, validation_targets, args.batch_size),
                        "seconds": round(seconds, 2), "positions_per_second": round(len(data.train) / max(seconds, 1e-9))})
        print(f"train: epoch {epoch + 1}: training loss {history[-1]['train_loss']:.6f}, validation loss "
              f"{history[-1]['validation_loss']:.6f}, {seconds:.1f} s, {history[-1]['positions_per_second']} positions/s",
              flush=True)
        checkpoint(f"epoch-{epoch + 1:03d}.pt")
        if os.path.exists(os.path.join(directory, PARTIAL)):
            os.remove(os.path.join(directory, PARTIAL))
        plot(history, untrained, sidecar(args.output, ".png"), os.path.basename(args.output))
    write_outputs(args, model, data, history, untrained, init_record)


def train_epoch(args, model, optimiser, records, targets, epoch: int, resumed: dict, checkpoint):
    """One pass over `records` in the epoch's order, from step `resumed["step"]` on when resuming
    within the epoch (`resumed` then also holds the summed loss and seconds before it); returns the
    summed loss and the seconds."""
    rng = numpy.random.default_rng([args.seed, epoch])
    order = rng.permutation(len(records))
    # A mirrored layout already reads every position as if its king stood on files a-d: a
    # file-mirrored copy would give the same features, so none is made.
    mirrored = rng.random(len(records)) < 0.5 if args.mirror and not model.layout.mirrored else None
    steps = math.ceil(len(records) / args.batch_size)
    first = resumed.get("step", 0)
    total = resumed.get("total", 0.0)
    start = time.monotonic() - resumed.get("seconds", 0.0)
    done = min(len(records), first * args.batch_size)
    bar = console.progress(total=len(records), initial=done, unit="pos", unit_scale=True,
                           desc=f"epoch {epoch + 1}/{args.epochs}")
    for step, (own, other, bucket, target) in enumerate(batches(
            records, targets, args.batch_size, model.layout, model.output_buckets, order[done:],
            None if mirrored is None else mirrored[done:]), first):
        for group in optimiser.param_groups:
            group["lr"] = learning_rate(args, (epoch * steps + step) / (args.epochs * steps))
        loss = ((torch.sigmoid(model(own, other, bucket)) - target) ** 2).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        model.clip()
        total += loss.item() * len(target)
        bar.update(len(target))
        if (step + 1) % args.checkpoint_steps == 0 and step + 1 < steps:
            checkpoint(PARTIAL, step=step + 1, total=total, seconds=time.monotonic() - start)
    bar.close()
    return total, time.monotonic() - start


def write_outputs(args: argparse.Namespace, model, data: trainset.TrainingSet, history: list, untrained: float,
                  init: dict | None) -> None:
    """The quantised net, and its provenance beside it."""
    net = model.quantised(args.scale)
    written = netfile.write(args.output, net)
    error = quantisation_error(model, net, data.validation, args.scale)
    provenance = {
        # None when the trainer was called from Python (a test) rather than by the command.
        "command": shlex.join(["pyrope", *sys.argv[1:]]) if "train" in sys.argv[1:] else None,
        "pyrope": revision(), "torch": torch.__version__, "threads": args.threads,
        "settings": {key: getattr(args, key) for key in FINGERPRINT}, "init": init,
        "inputs": data.shards, "skipped": data.skipped,
        "positions": {"train": len(data.train), "validation": len(data.validation)},
        "untrained_validation_loss": untrained, "epochs": history, "final": history[-1] if history else None,
        "training_seconds": round(sum(entry["seconds"] for entry in history), 1),
        "quantisation_error_cp": round(error, 2),
        "output": {"path": os.path.basename(args.output), "bytes": len(written),
                   "sha256": hashlib.sha256(written).hexdigest()},
    }
    with open(sidecar(args.output, ".json"), "w") as handle:
        json.dump(provenance, handle, indent=1)
        handle.write("\n")
    print(f"train: wrote {args.output} ({len(written)} bytes; float and quantised evaluations differ by "
          f"{error:.1f} cp on average) and its .png and .json")
