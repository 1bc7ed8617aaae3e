"""`pyrope train`: the command line of the NNUE trainer (trainer.py), which needs the `train` extra.

This module only parses the arguments and checks that PyTorch, NumPy and matplotlib are there, so
that `pyrope train --help` works and a missing package is one sentence naming the extra.
"""
from __future__ import annotations

import argparse
import os

from .. import console
from ..nnue import netfile

DEFAULTS = {
    # 256: the usual size of a first net of this shape; see docs/nnue.md for speed by size.
    "hidden": 256,
    # SCReLU: squared clipping learns more from the same accumulator size at the cost of one multiply.
    "activation": "screlu",
    # One king bucket and one output: the shipped net's shape, until an SPRT says a larger one plays
    # better (docs/nnue.md, "The network").
    "king_buckets": "none",
    "output_buckets": 1,
    # A quarter of the target from the game result: it adds what a 5000-node search misses, but a
    # single game's result is noisy for any one of its positions.
    "wdl": 0.25,
    # 250, not engines' habitual 400: in Pyrope's self-play at 5000 nodes the game result follows
    # sigmoid(score / K) best at K 200-300, so at 400 the score and result halves of the target
    # disagree (docs/nnue.md, "The target's scale"); the shipped net was trained at 250.
    "scale": 250,
    "epochs": 10,
    "batch_size": 16384,
    "lr": 0.001,
    "lr_end": 0.00001,
    "weight_decay": 0.01,
    "validation": 0.05,
    "seed": 1,
    # On: half the positions seen file-mirrored each epoch gave run 1's pilots a lower validation loss
    # (0.011427 -> 0.011273 on 0.87 M positions, 0.010068 -> 0.009941 on 4.3 M) and, on 4.3 M, a net
    # 77 Elo ahead against the hand-crafted evaluation (docs/nnue.md, "The first net's run").
    "mirror": True,
    # 16 million positions: some 13 minutes of one core at hidden 256, all a killed run then loses.
    "checkpoint_steps": 1000,
}
EXAMPLES = """\
examples:
  pyrope train ~/pyrope-data -o pyrope.nnue                  # a datagen directory
  pyrope train a/positions/000001.bin b -o n.nnue --hidden 128 --epochs 4 --threads 1
  pyrope train ~/pyrope-data -o pyrope.nnue --resume         # continue from the last checkpoint
  pyrope train new-data -o next.nnue --init pyrope.nnue --lr 0.0003   # fine-tune a net on new games
needs PyTorch: pip install "pyrope[train]"; docs/nnue.md describes the options and the outputs"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EXAMPLES
    parser.add_argument("data", nargs="+", metavar="DATA", help="shards (*.bin) or directories of them (datagen's)")
    parser.add_argument("-o", "--output", required=True, metavar="NET", help="the net file to write")
    parser.add_argument("--hidden", type=console.positive_int, default=DEFAULTS["hidden"],
                        help="accumulator size per perspective (default %(default)s)")
    parser.add_argument("--activation", choices=netfile.ACTIVATIONS, default=DEFAULTS["activation"],
                        help="clipped ReLU or squared clipped ReLU (default %(default)s)")
    parser.add_argument("--king-buckets", choices=netfile.LAYOUTS, default=DEFAULTS["king_buckets"],
                        help="copies of the 768 piece inputs by the square of each side's own king: none; "
                             "mirrored (files e-h seen as a-d); 4, 8 or 16 buckets, mirrored "
                             "(docs/nnue.md draws them; default %(default)s)")
    parser.add_argument("--output-buckets", type=int, choices=netfile.OUTPUT_BUCKETS, default=DEFAULTS["output_buckets"],
                        help="output neurons chosen by the number of pieces on the board (default %(default)s)")
    parser.add_argument("--wdl", type=console.fraction, default=DEFAULTS["wdl"], metavar="LAMBDA",
                        help="the target's share of the game result: 0 search score only, 1 result only "
                             "(default %(default)s)")
    parser.add_argument("--scale", type=console.positive_int, default=DEFAULTS["scale"],
                        help="centipawns per unit of output: target sigmoid(score / SCALE) (default %(default)s)")
    parser.add_argument("--epochs", type=console.positive_int, default=DEFAULTS["epochs"],
                        help="passes over the training positions (default %(default)s)")
    parser.add_argument("--batch-size", type=console.positive_int, default=DEFAULTS["batch_size"],
                        help="positions per step (default %(default)s)")
    parser.add_argument("--lr", type=float, default=DEFAULTS["lr"], help="AdamW's first learning rate (default %(default)s)")
    parser.add_argument("--lr-end", type=float, default=DEFAULTS["lr_end"],
                        help="the last learning rate, reached by a cosine decay over the run (default %(default)s)")
    parser.add_argument("--weight-decay", type=float, default=DEFAULTS["weight_decay"],
                        help="AdamW's weight decay (default %(default)s)")
    parser.add_argument("--validation", type=console.fraction, default=DEFAULTS["validation"], metavar="FRACTION",
                        help="share of the games held out for validation (default %(default)s)")
    parser.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=DEFAULTS["mirror"],
                        help="each epoch, see a random half of the positions mirrored left to right "
                             "(files a-h swapped: the same game value but for castling, which the inputs "
                             "do not hold): more positions from the same data (default on)")
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"], help="initial weights and shuffles (default %(default)s)")
    parser.add_argument("--init", metavar="NET", help="start from this net file's weights instead of random ones "
                        "(fine-tuning on new data; its hidden size and activation must be the run's)")
    parser.add_argument("--threads", type=console.positive_int, default=os.cpu_count() or 1,
                        help="PyTorch's threads (default: every core, %(default)s)")
    parser.add_argument("--checkpoints", metavar="DIR", help="checkpoint directory (default: NET's stem + .checkpoints)")
    parser.add_argument("--resume", action="store_true", help="continue from the last checkpoint in the directory")
    parser.add_argument("--checkpoint-steps", type=console.positive_int, default=DEFAULTS["checkpoint_steps"],
                        metavar="STEPS", help="also checkpoint every STEPS batches within an epoch (default %(default)s)")


def run(args: argparse.Namespace) -> int:
    console.require(("torch", "numpy", "matplotlib"), "train", "training")
    from .trainer import train
    train(args)
    return 0
