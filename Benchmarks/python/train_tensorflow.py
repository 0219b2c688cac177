"""Usage: train_tensorflow.py BUNDLE --data TRAIN.json [--epochs N] [--batch-size B] [--threads N]
                             [--placeholder NAME=VALUE]...

What `tensorio train BUNDLE --data TRAIN.json --epochs N --batch-size B --json` does with a TensorFlow
SavedModel bundle, done the way Python users do it: TensorFlow's TF1 API (tf.compat.v1), a Session with the
SavedModel loaded by saved_model.loader.load with the tag TensorIO loads for training ("train"), and one
sess.run per batch with the same feeds, fetches and targets as TensorIO's step: every input layer and
placeholder fed (NumPy slices of arrays read once), the train.outputs layers fetched (loss, accuracy) and
the train.ops operations run. The session has `--threads` intra- and inter-op threads, as TensorIO's
`--threads`. Prints one JSON object like train_litert.py; only the step loop is timed."""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # keep TensorFlow's start-up lines off stderr

import numpy as np
import tensorflow as tf

import train_data

v1 = tf.compat.v1


def tensor_name(layer):
    """A layer name as TensorFlow names the tensor: "op" is "op:0"."""
    return layer if ":" in layer else layer + ":0"


def main():
    parser = train_data.arguments()
    parser.add_argument("--placeholder", action="append", default=[], help="NAME=VALUE (a JSON number)")
    args = parser.parse_args()
    description = train_data.model_json(args.bundle)
    keys = [layer["name"] for layer in description["inputs"]]
    fetched = [tensor_name(name) for name in description["train"]["outputs"]]
    targets = description["train"]["ops"]
    placeholders = {}
    for text in args.placeholder:
        name, value = text.split("=", 1)
        placeholders[tensor_name(name)] = np.float32(json.loads(value))

    graph = tf.Graph()
    config = v1.ConfigProto(intra_op_parallelism_threads=args.threads, inter_op_parallelism_threads=args.threads)
    session = v1.Session(graph=graph, config=config)
    with graph.as_default():
        v1.saved_model.loader.load(session, ["train"], os.path.join(args.bundle, description["model"]["file"]))
    feeds = {key: graph.get_tensor_by_name(tensor_name(key)) for key in keys}
    fetches = [graph.get_tensor_by_name(name) for name in fetched] + [graph.get_operation_by_name(op) for op in targets]
    constant = {graph.get_tensor_by_name(name): value for name, value in placeholders.items()}
    arrays = train_data.load(args.data, keys)
    loss = fetched.index(tensor_name("loss")) if tensor_name("loss") in fetched else 0

    def step(batch):
        values = session.run(fetches, {**{feeds[key]: array for key, array in batch.items()}, **constant})
        return values[loss]

    result = train_data.train(step, arrays, args.epochs, args.batch_size)
    session.close()
    train_data.emit({"backend": "tensorflow", "targets": targets, "fetches": fetched, **result})


if __name__ == "__main__":
    main()
