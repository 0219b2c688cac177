#!/usr/bin/env python3
"""Writes the hostile regression corpus next to this script, from the project's own fixtures.

Each case is a file or bundle folder plus one entry in cases.json saying which check it goes through and
the error it must give (code and a part of the message). Python's standard library only; deterministic.

    python3 Tests/Fixtures/Hostile/make_hostile.py
"""
import json
import os
import shutil
import struct
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Bundles")
NUMBER = os.path.join(FIXTURES, "1_in_1_out_number_test.tiobundle")
LABELED = os.path.join(FIXTURES, "labeled_vectors_test.tiobundle")

cases = []


def case(name, kind, code, message, why):
    cases.append({"file": name, "kind": kind, "code": code, "message": message, "why": why})


def bundle(name, edit, source=NUMBER):
    """A copy of a fixture bundle whose model.json is changed by `edit`."""
    target = os.path.join(HERE, name)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    path = os.path.join(target, "model.json")
    with open(path) as handle:
        document = json.load(handle)
    edit(document)
    with open(path, "w") as handle:
        json.dump(document, handle, indent=2)
        handle.write("\n")


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as handle:
        handle.write(data)


def png_header_only(width, height, color_type=0):
    """A PNG signature and IHDR claiming the given size, and no pixel data."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def zip_bundle(source, entries_override=None):
    """Zips a bundle folder (folder at the top), deflated, in sorted order."""
    import io
    buffer = io.BytesIO()
    base = os.path.basename(source)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        def add(name, data):
            # A fixed timestamp keeps the archives the same on every run.
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
        add(base + "/", b"")
        for root, _, files in sorted(os.walk(source)):
            for file in sorted(files):
                path = os.path.join(root, file)
                arcname = os.path.join(base, os.path.relpath(path, source))
                data = open(path, "rb").read()
                if entries_override and arcname in entries_override:
                    data = entries_override[arcname]
                add(arcname, data)
    return buffer.getvalue()


def patch_sizes(data, name, declared):
    """Rewrites the uncompressed size of entry `name` in its local header and the central directory."""
    data = bytearray(data)
    encoded = name.encode()
    for signature, name_offset, size_offset in ((b"PK\x03\x04", 30, 22), (b"PK\x01\x02", 46, 24)):
        start = 0
        while True:
            at = data.find(signature, start)
            if at < 0:
                break
            name_length = struct.unpack_from("<H", data, at + (26 if signature == b"PK\x03\x04" else 28))[0]
            if bytes(data[at + name_offset:at + name_offset + name_length]) == encoded:
                struct.pack_into("<I", data, at + size_offset, declared)
            start = at + 4
    return bytes(data)


# --- model.json: arithmetic and limits -------------------------------------------------------------------

def overflowing_labelled_output(document):
    document["outputs"][0]["shape"] = [3037000500, 3037000500]
    document["outputs"][0]["labels"] = "labels.txt"

bundle("shape-overflow-labelled.tiobundle", overflowing_labelled_output, source=LABELED)
case("shape-overflow-labelled.tiobundle", "bundle", "invalid-bundle",
     "outputs[0].shape: [3037000500,3037000500] holds more than 268435456 elements",
     "each size under the old 1e12 bound, the product overflowing Int: trapped (SIGILL) in elementCount")

def overflowing_input(document):
    document["inputs"][0]["shape"] = [-1, 4294967296, 4294967296, 4294967296]

bundle("shape-overflow-batched.tiobundle", overflowing_input)
case("shape-overflow-batched.tiobundle", "bundle", "invalid-bundle",
     "inputs[0].shape: [-1,4294967296,4294967296,4294967296] holds more than",
     "a batched shape whose item size overflows")

def huge_image_layer(document):
    document["inputs"][0] = {"name": "input", "type": "image", "shape": [100000, 100000, 3], "format": "RGB"}

bundle("huge-image-layer.tiobundle", huge_image_layer)
case("huge-image-layer.tiobundle", "bundle", "invalid-bundle",
     "inputs[0].shape: [100000,100000,3] is 100000×100000 pixels, more than the limit of 67108864 (ModelLimits.maximumImageLayerPixels)",
     "passed validate, then run --image aborted allocating 30 GB")

def quantized_float_model(document):
    document["model"]["quantized"] = True

bundle("quantized-float-model.tiobundle", quantized_float_model)
case("quantized-float-model.tiobundle", "bundle", "layer-mismatch",
     "model.quantized is true and no dtype is given, which means uint8, but the model's tensor",
     "passes the schema, disagrees with its model: was published by push and installed by pull")

write("deep-nesting.json", b"[" * 20000 + b"]" * 20000)
case("deep-nesting.json", "model-json", "invalid-bundle", "is not valid JSON",
     "20,000 nested arrays: must be a syntax error, not a stack overflow")

# --- images ---------------------------------------------------------------------------------------------

write("gray-16384.png", png_header_only(16384, 16384))
case("gray-16384.png", "image", "limit-exceeded",
     "16384×16384 pixels, more than the limit of 67108864 (ModelLimits.maximumDecodedImagePixels)",
     "inside the old 256-megapixel limit, a 261 KB gray PNG took 2.3 GB to prepare")

write("png-65535-square.png", png_header_only(65535, 65535, color_type=2))
case("png-65535-square.png", "image", "limit-exceeded", "65535×65535 pixels",
     "header only: must be refused before any allocation")

# --- archives -------------------------------------------------------------------------------------------

number_zip = zip_bundle(NUMBER)
model_entry = "1_in_1_out_number_test.tiobundle/model.tflite"

# Two flipped bits inside the model's deflate stream: ZIPFoundation 0.9.20's inflate spun forever on such
# archives. The positions are fixed, so the file is the same every time.
flipped = bytearray(number_zip)
at = flipped.find(model_entry.encode())
data_start = at + len(model_entry)
flipped[data_start + 40] ^= 0x10
flipped[data_start + 41] ^= 0x04
write("flipped-bits.zip", bytes(flipped))
case("flipped-bits.zip", "archive", "invalid-archive", "model.tflite",
     "two flipped bits in compressed data: the old inflate loop never ended, and SIGTERM could not stop the server")

# A 1 MiB model whose headers declare 1,000 bytes.
big = bytes(range(256)) * 4096
lying = patch_sizes(zip_bundle(NUMBER, {model_entry: big}), model_entry, 1000)
write("lying-size.zip", lying)
case("lying-size.zip", "archive", "invalid-archive", "model.tflite",
     "headers declaring 1,000 bytes for a multi-megabyte stream: 4.5 GiB was written past the 4 GiB limit")

# A zip bomb: 64 MiB of zeros in a few tens of kilobytes.
bomb = zip_bundle(NUMBER, {model_entry: bytes(64 << 20)})
write("zip-bomb.zip", bomb)
case("zip-bomb.zip", "archive", "limit-exceeded", "BundleArchive.Limits.maximumCompressionRatio",
     "64 MiB of zeros deflated about 1,000:1")

write("truncated.zip", number_zip[: len(number_zip) // 2])
case("truncated.zip", "archive", "invalid-archive", "no end-of-central-directory record",
     "cut in the middle: no end-of-central-directory record")

# --- model files ----------------------------------------------------------------------------------------

def model_variant(name, mutate, source=NUMBER):
    """A copy of a fixture bundle (the number bundle by default) whose model.tflite is changed by `mutate`
    (bytes -> bytes)."""
    target = os.path.join(HERE, name)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    path = os.path.join(target, "model.tflite")
    data = open(path, "rb").read()
    with open(path, "wb") as handle:
        handle.write(mutate(data))

model_variant("truncated-model.tiobundle", lambda data: data[: len(data) // 2])
case("truncated-model.tiobundle", "bundle", "invalid-model-file", "model.file:",
     "a truncated .tflite: LiteRT read past the end (SIGSEGV/SIGBUS) or spun in LiteRtCreateModelFromFile")

model_variant("filled-model.tiobundle", lambda data: data[:64] + b"\xff" * 256 + data[320:])
case("filled-model.tiobundle", "bundle", "invalid-model-file", "model.file:",
     "a range of the flatbuffer filled with 0xFF: offsets point far outside the file")

model_variant("not-tflite.tiobundle", lambda data: b"PK\x03\x04" + data[4:])
case("not-tflite.tiobundle", "bundle", "invalid-model-file", "model.file:",
     "a zip signature where the root offset belongs: refused before LiteRT parses it")

# --- model files from mutation campaigns (scripts/mutate-models.py) ---------------------------------------
# Each is a fixture with a few bytes changed, which the verifier accepted and LiteRT then died on in
# `tensorio inspect` and `tensorio run`. The bytes are the campaign's, so every change is kept, including
# those that do not matter; the comment says which one does. Each file goes through the verifier alone
# ("model-file") and through a whole load ("bundle").

def patch(edits):
    """A mutation that writes `edits` (offset -> bytes) over the model."""
    def mutate(data):
        data = bytearray(data)
        for position, value in edits.items():
            data[position:position + len(value)] = value
        return bytes(data)
    return mutate


def campaign_case(name, source, edits, message, why):
    model_variant(name, patch(edits), source=os.path.join(FIXTURES, source))
    case(name, "bundle", "invalid-model-file", message, why)
    case(name + "/model.tflite", "model-file", "invalid-model-file", message, why)

# the team's reproducer tflite-null-string-01 (not in the repository) (four flipped bits): byte 156 turns
# signature_defs[0].outputs[0].tensor_index from 7 into 6, which outputs[1] maps already; the others fall in
# constant data and a tensor name.
campaign_case("duplicate-signature-output.tiobundle", "2_in_2_out_matrices_test.tiobundle",
              {156: b"\x06", 598: b"\x00", 1119: b"\xef", 1553: b"\x66"},
              "signature_defs[0].outputs[1].tensor_index: tensor 6 is already mapped by outputs[0]",
              "subgraph output 7 left unmapped: LiteRT aborted (std::logic_error, basic_string::_M_construct null not valid)")

# the team's reproducer tflite-segv-offset-03 (not in the repository) and -04 (the same file; offsets rewritten): bytes 1164-1167
# turn tensor 3's scale from 0.0039 into 2.2e-42, a subnormal float; the others change the signature key,
# a shape and a string inside CONVERSION_METADATA.
campaign_case("subnormal-quantization-scale.tiobundle", "quantized_uint8_test.tiobundle",
              {100: b"\x2c\x06\x00\x00", 408: b"\x03", 1104: b"\xff\xff", 1164: b"\x2c\x06\x00\x00"},
              "subgraphs[0].tensors[3].quantization.scale[0]: the scale 2.214e-42 is not a positive normal number",
              "a subnormal quantization scale: XNNPack crashed with SIGSEGV while LiteRT compiled the model")

# The first version of scripts/mutate-models.py, --seed 1, case 1775 (vtable entries rewritten): byte 454
# removes the only field of a vtable that the signature's input map shares with three buffers, so
# signature_defs[0].inputs[0] loses its name (and the buffers their data); byte 920 gives the tensors an
# is_variable field (harmless alone).
campaign_case("unnamed-signature-input.tiobundle", "pixelbuffer_identity_test.tiobundle",
              {454: b"\x00", 920: b"\x04"},
              "signature_defs[0].inputs[0].name: the signature's input has no name",
              "a signature input without a name: LiteRT aborted (std::logic_error, basic_string::_M_construct null not valid)")

# scripts/mutate-models.py --seed 1, case 9608 (two flipped bits): byte 1224 points tensor 5, the output of
# operators[1] (a FULLY_CONNECTED), at buffer 4, the 64 bytes of constant data of tensor 3; byte 200 makes
# the signature's name for input2 one byte longer (harmless alone).
campaign_case("constant-operator-output.tiobundle", "2_in_2_out_matrices_test.tiobundle",
              {200: b"\x07", 1224: b"\x04"},
              "subgraphs[0].operators[1].outputs[0]: tensor 5 holds constant data (64 bytes), but this operator writes it",
              "an operator writing its output over constant data, which LiteRT maps read-only: SIGSEGV in the first run")

with open(os.path.join(HERE, "cases.json"), "w") as handle:
    json.dump(cases, handle, indent=2, ensure_ascii=False)
    handle.write("\n")
print(f"{len(cases)} cases")
