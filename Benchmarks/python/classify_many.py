"""Usage: classify_many.py BUNDLE --processes N IMAGE...

What `tensorio classify BUNDLE IMAGE... --jobs N` does, in Python with every core busy the usual way: a
multiprocessing pool of N processes, each with its own ai_edge_litert Interpreter (loaded once per process,
one thread), decoding and preprocessing as classify_litert.py does. Prints the top-5 of each image in the
order given; timed as a whole process by run-throughput-benchmarks.py."""
import argparse
import multiprocessing
import os

from classify_litert import load, top5

_model = {}


def _load(bundle):
    _model.update(load(bundle, num_threads=1))


def _classify(path):
    return path, top5(_model, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("images", nargs="+")
    parser.add_argument("--processes", type=int, default=os.cpu_count())
    args = parser.parse_args()
    with multiprocessing.Pool(args.processes, initializer=_load, initargs=(args.bundle,)) as pool:
        # imap keeps the order given, as tensorio classify does; a small chunk keeps every process busy.
        for path, best in pool.imap(_classify, args.images, chunksize=4):
            print(path)
            for rank, (label, score) in enumerate(best):
                print(f"  {rank + 1}. {label}  {score:.4f}")


if __name__ == "__main__":
    main()
