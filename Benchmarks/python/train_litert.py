"""Usage: train_litert.py BUNDLE --data TRAIN.json [--epochs N] [--batch-size B] [--threads N]

What `tensorio train BUNDLE --data TRAIN.json --epochs N --batch-size B --json` does with a TensorFlow Lite
on-device training bundle, done the way Python users do it: ai_edge_litert's Interpreter and the signature
runner of the training signature (model.json's train.ops, "train"), fed NumPy slices of arrays read once.
The runner resizes its inputs when a batch's size changes (the last, smaller batch of an epoch, then back).
Prints one JSON object: per epoch the mean loss and seconds; steps, step_seconds and steps_per_second over
every epoch. Only the step loop is timed (not the interpreter's load nor reading the data)."""
import os

from ai_edge_litert.interpreter import Interpreter

import train_data


def main():
    args = train_data.arguments().parse_args()
    description = train_data.model_json(args.bundle)
    (signature,) = description["train"]["ops"]
    (output,) = description["train"]["outputs"]
    keys = [layer["name"] for layer in description["inputs"]]

    interpreter = Interpreter(model_path=os.path.join(args.bundle, description["model"]["file"]),
                              num_threads=args.threads)
    runner = interpreter.get_signature_runner(signature)
    arrays = train_data.load(args.data, keys)

    def step(batch):
        return runner(**batch)[output]

    result = train_data.train(step, arrays, args.epochs, args.batch_size)
    train_data.emit({"backend": "tflite", "signature": signature, **result})


if __name__ == "__main__":
    main()
