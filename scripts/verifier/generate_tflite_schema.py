#!/usr/bin/env python3
"""Generates the table layout of a FlatBuffers schema as Swift, for the bounds-checked readers: by default
TFLiteSchema.generated.swift (what the .tflite verifier checks) from schema.fbs, and with
`--enum-name MetadataSchema` MetadataSchema.generated.swift from TFLite's metadata_schema.fbs.

Usage:
    scripts/verifier/generate_tflite_schema.py SCHEMA_FBS --source "DESCRIPTION" \
        > Sources/TensorIOModelFile/TFLiteSchema.generated.swift
    scripts/verifier/generate_tflite_schema.py METADATA_SCHEMA_FBS --enum-name MetadataSchema \
        --source "DESCRIPTION" > Sources/TensorIOMetadata/MetadataSchema.generated.swift

SCHEMA_FBS is TensorFlow's `tensorflow/compiler/mlir/lite/schema/schema.fbs` (the same file LiteRT
ships as `tflite/converter/schema/schema.fbs`). DESCRIPTION names where it came from (repository and
commit) and is copied into the generated file's header so the next person knows what to download.

Only the parts of the FlatBuffers schema language that matter for layout are read: tables, structs,
enums, unions, field types, `(deprecated)` and `(id: N)` attributes. Deprecated fields keep their slot
(FlatBuffers never reuses one). Anything the verifier would not understand (vectors of unions, nested
namespaces with includes) stops the script rather than producing a wrong layout.
Standard library only.
"""

import argparse
import re
import sys

SCALAR_SIZES = {
    "bool": 1, "byte": 1, "ubyte": 1, "int8": 1, "uint8": 1,
    "short": 2, "ushort": 2, "int16": 2, "uint16": 2,
    "int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4, "float32": 4,
    "long": 8, "ulong": 8, "int64": 8, "uint64": 8, "double": 8, "float64": 8,
}

SWIFT_KEYWORDS = {
    "any", "as", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer",
    "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func",
    "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil", "none", "open",
    "operator", "private", "protocol", "public", "repeat", "rethrows", "return", "self", "Self",
    "some", "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
    "type", "typealias", "var", "where", "while", "Type",
}


# What the generated file's header says for each schema it is run on. The TFLite text is the one the
# verifier's file has always carried, so regenerating it stays byte-identical.
PROFILES = {
    "TFLiteSchema": {
        "about": [
            "The layout of every table in the TFLite FlatBuffers schema, for TFLiteModelVerifier: each field's",
            "slot and kind, unions with their member tables, and the enums' values. To regenerate after the",
            "schema changes (new operators, new options tables), download that schema.fbs from TensorFlow",
            "(tensorflow/compiler/mlir/lite/schema/schema.fbs) or LiteRT at the version wanted and run:",
        ],
        "input": "schema.fbs",
        "arguments": [],
        "output": "Sources/TensorIOModelFile/TFLiteSchema.generated.swift",
        "summary": "The TFLite schema's tables, unions and enums, as ``FlatBufferTableSchema`` and constants.",
        "identifier": "The four bytes at offset 4 of every TFLite file.",
    },
    "MetadataSchema": {
        "about": [
            "The layout of every table in the TFLite Model Metadata schema (the TFLITE_METADATA buffer), for",
            "TFLiteMetadata: each field's slot and kind, unions with their member tables, and the enums'",
            "values. Versions of the schema only append fields and union members, so a newer schema reads",
            "every older buffer. To regenerate, download metadata_schema.fbs (tensorflow/tflite-support",
            "tensorflow_lite_support/metadata/metadata_schema.fbs, or MediaPipe's copy in",
            "mediapipe/tasks/metadata/metadata_schema.fbs) at the version wanted and run:",
        ],
        "input": "metadata_schema.fbs",
        "arguments": ["--enum-name MetadataSchema"],
        "output": "Sources/TensorIOMetadata/MetadataSchema.generated.swift",
        # FlatBufferTableSchema and its kin come from the module of the TFLite schema.
        "imports": ["TensorIOModelFile"],
        "summary": "The TFLite Model Metadata schema's tables, unions and enums, as ``FlatBufferTableSchema`` and constants.",
        "identifier": "The four bytes at offset 4 of every metadata buffer.",
    },
}


def generic_profile(enum_name):
    return {
        "about": [
            f"The layout of every table in a FlatBuffers schema, for {enum_name}'s readers: each field's slot and",
            "kind, unions with their member tables, and the enums' values. To regenerate, run:",
        ],
        "input": "schema.fbs",
        "arguments": [f"--enum-name {enum_name}"],
        "output": f"{enum_name}.generated.swift",
        # A schema other than TFLite's is read from a module that imports the FlatBuffers types.
        "imports": ["TensorIOModelFile"],
        "summary": "The schema's tables, unions and enums, as ``FlatBufferTableSchema`` and constants.",
        "identifier": "The four bytes at offset 4 of every buffer of this schema.",
    }


class SchemaError(Exception):
    pass


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def tokenize(text):
    token = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_.]*)|(-?[0-9][0-9A-Za-z_.+-]*)|(.))', re.S)
    tokens = []
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = token.match(text, position)
        if not match:
            raise SchemaError(f"cannot read the schema at character {position}")
        position = match.end()
        tokens.append(next(group for group in match.groups() if group is not None))
    return tokens


class Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.index = 0
        self.enums = {}      # name -> (underlying type, [(value name, value)])
        self.unions = {}     # name -> [(member table or None, value)]
        self.tables = {}     # name -> [(field name, type text, attributes)]
        self.structs = {}    # name -> [(field name, type text)]
        self.order = []      # table names in declaration order
        self.file_identifier = None
        self.root_type = None

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, expected=None):
        token = self.peek()
        if token is None:
            raise SchemaError("unexpected end of the schema")
        if expected is not None and token != expected:
            raise SchemaError(f"expected {expected!r}, found {token!r} (token {self.index})")
        self.index += 1
        return token

    def attributes(self):
        attributes = {}
        if self.peek() != "(":
            return attributes
        self.take("(")
        while self.peek() != ")":
            name = self.take()
            value = None
            if self.peek() == ":":
                self.take(":")
                value = self.take()
            attributes[name] = value
            if self.peek() == ",":
                self.take(",")
        self.take(")")
        return attributes

    def parse(self):
        while self.peek() is not None:
            keyword = self.take()
            if keyword == "namespace":
                self.take()
                self.take(";")
            elif keyword in ("file_identifier", "file_extension", "root_type", "attribute"):
                value = self.take()
                self.take(";")
                if keyword == "file_identifier":
                    self.file_identifier = value.strip('"')
                if keyword == "root_type":
                    self.root_type = value
            elif keyword == "include":
                raise SchemaError("includes are not supported: concatenate the schemas first")
            elif keyword == "enum":
                self.parse_enum()
            elif keyword == "union":
                self.parse_union()
            elif keyword in ("table", "struct"):
                self.parse_table(keyword)
            else:
                raise SchemaError(f"unexpected {keyword!r} at token {self.index}")

    def parse_enum(self):
        name = self.take()
        self.take(":")
        underlying = self.take()
        self.attributes()
        self.take("{")
        values = []
        next_value = 0
        while self.peek() != "}":
            value_name = self.take()
            if self.peek() == "=":
                self.take("=")
                next_value = int(self.take(), 0)
            self.attributes()
            values.append((value_name, next_value))
            next_value += 1
            if self.peek() == ",":
                self.take(",")
        self.take("}")
        self.enums[name] = (underlying, values)

    def parse_union(self):
        name = self.take()
        self.attributes()
        self.take("{")
        members = []
        next_value = 1
        while self.peek() != "}":
            member = self.take()
            if self.peek() == ":":
                raise SchemaError(f"union {name}: aliased members are not supported")
            if self.peek() == "=":
                self.take("=")
                next_value = int(self.take(), 0)
            self.attributes()
            members.append((member, next_value))
            next_value += 1
            if self.peek() == ",":
                self.take(",")
        self.take("}")
        self.unions[name] = members

    def parse_table(self, keyword):
        name = self.take()
        self.attributes()
        self.take("{")
        fields = []
        while self.peek() != "}":
            field_name = self.take()
            self.take(":")
            if self.peek() == "[":
                self.take("[")
                element = self.take()
                if self.peek() == ":":
                    raise SchemaError(f"{name}.{field_name}: fixed-size arrays are not supported")
                self.take("]")
                type_text = "[" + element + "]"
            else:
                type_text = self.take()
            if self.peek() == "=":
                self.take("=")
                self.take()
            attributes = self.attributes()
            self.take(";")
            fields.append((field_name, type_text, attributes))
        self.take("}")
        if keyword == "table":
            self.tables[name] = fields
            self.order.append(name)
        else:
            self.structs[name] = [(field, type_text) for field, type_text, _ in fields]


def struct_layout(parser, name, seen=()):
    """(size, alignment) of a struct, with FlatBuffers' natural alignment and padding."""
    if name in seen:
        raise SchemaError(f"struct {name} contains itself")
    size = 0
    alignment = 1
    for field, type_text in parser.structs[name]:
        field_size, field_alignment = value_layout(parser, type_text, seen + (name,))
        size = (size + field_alignment - 1) // field_alignment * field_alignment + field_size
        alignment = max(alignment, field_alignment)
    return (size + alignment - 1) // alignment * alignment, alignment


def value_layout(parser, type_text, seen=()):
    if type_text in SCALAR_SIZES:
        size = SCALAR_SIZES[type_text]
        return size, size
    if type_text in parser.enums:
        size = SCALAR_SIZES[parser.enums[type_text][0]]
        return size, size
    if type_text in parser.structs:
        return struct_layout(parser, type_text, seen)
    raise SchemaError(f"{type_text} is not a scalar, enum or struct")


def camel(name):
    parts = [part for part in re.split(r"_+", name) if part]
    if not parts:
        raise SchemaError(f"cannot name {name!r} in Swift")
    if name.isupper() or not any(c.islower() for c in name):
        parts = [part.lower() for part in parts]
    text = parts[0][:1].lower() + parts[0][1:] + "".join(part[:1].upper() + part[1:] for part in parts[1:])
    return f"`{text}`" if text in SWIFT_KEYWORDS else text


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def field_kind(parser, table, field, type_text, table_index, union_index, slot):
    if type_text == "string":
        return "string"
    if type_text.startswith("["):
        element = type_text[1:-1]
        if element == "string":
            return "stringVector"
        if element in parser.tables:
            return f"tableVector({table_index[element]})"
        if element in parser.unions:
            raise SchemaError(f"{table}.{field}: vectors of unions are not supported")
        if element in parser.structs:
            size, _ = struct_layout(parser, element)
            return f"structVector(elementByteCount: {size})"
        size, _ = value_layout(parser, element)
        return f"scalarVector(elementByteCount: {size})"
    if type_text in parser.tables:
        return f"table({table_index[type_text]})"
    if type_text in parser.unions:
        return f"union({union_index[type_text]}, typeSlot: {slot - 1})"
    if type_text in parser.structs:
        size, _ = struct_layout(parser, type_text)
        return f"structValue(byteCount: {size})"
    size, _ = value_layout(parser, type_text)
    return f"scalar(byteCount: {size})"


def generate(parser, source, enum_name="TFLiteSchema"):
    if parser.root_type not in parser.tables:
        raise SchemaError("the schema has no root_type table")
    table_index = {name: index for index, name in enumerate(parser.order)}
    union_names = list(parser.unions)
    union_index = {name: index for index, name in enumerate(union_names)}
    out = []
    emit = out.append
    profile = PROFILES.get(enum_name) or generic_profile(enum_name)
    emit(f"// {enum_name}.generated.swift: GENERATED by scripts/verifier/generate_tflite_schema.py. Do not edit.")
    emit("//")
    emit(f"// Source schema: {source}")
    emit("//")
    for line in profile["about"]:
        emit("// " + line if line else "//")
    emit("//")
    emit(f"//     python3 scripts/verifier/generate_tflite_schema.py {profile['input']} \\")
    for argument in profile["arguments"]:
        emit(f"//         {argument} \\")
    emit("//         --source \"<repository> <path> at <commit>\" \\")
    emit(f"//         > {profile['output']}")
    emit("")
    for module in profile.get("imports", []):
        emit(f"import {module}")
        emit("")
    emit("// swiftlint:disable all")
    emit("")
    emit(f"/// {profile['summary']}")
    emit(f"enum {enum_name} {{")
    emit(f"    /// Where the schema this file was generated from came from.")
    emit(f"    static let source = {swift_string(source)}")
    emit(f"    /// {profile['identifier']}")
    emit(f"    static let fileIdentifier = {swift_string(parser.file_identifier or '')}")
    emit(f"    /// The index in ``tables`` of the root table, `{parser.root_type}`.")
    emit(f"    static let rootTable = {table_index[parser.root_type]}")
    emit("")
    emit("    /// Every table, indexed by the numbers ``FlatBufferFieldKind`` refers to.")
    emit("    static let tables: [FlatBufferTableSchema] = [")
    for name in parser.order:
        emit(f"        // {table_index[name]}")
        emit(f"        FlatBufferTableSchema(name: {swift_string(name)}, fields: [")
        slot = 0
        for field, type_text, attributes in parser.tables[name]:
            if "id" in attributes:
                raise SchemaError(f"{name}.{field}: explicit field ids are not supported")
            if type_text in parser.unions:
                emit(f"            FlatBufferField(name: {swift_string(field + '_type')}, slot: {slot}, kind: .scalar(byteCount: 1)),")
                slot += 1
            kind = field_kind(parser, name, field, type_text, table_index, union_index, slot)
            emit(f"            FlatBufferField(name: {swift_string(field)}, slot: {slot}, kind: .{kind}),")
            slot += 1
        emit("        ]),")
    emit("    ]")
    emit("")
    emit("    /// Every union; a member's position in `members` is its type value (0 is NONE).")
    emit("    static let unions: [FlatBufferUnionSchema] = [")
    for name in union_names:
        members = parser.unions[name]
        largest = max((value for _, value in members), default=0)
        slots = ["nil"] * (largest + 1)
        for member, value in members:
            if member not in parser.tables:
                raise SchemaError(f"union {name}: member {member} is not a table")
            slots[value] = str(table_index[member])
        emit(f"        // {union_index[name]}")
        emit(f"        FlatBufferUnionSchema(name: {swift_string(name)}, members: [{', '.join(slots)}]),")
    emit("    ]")
    for name in parser.order:
        emit("")
        emit(f"    /// The table `{name}`: its index in ``tables`` and its fields' slots.")
        emit(f"    enum {name} {{")
        emit(f"        static let tableIndex = {table_index[name]}")
        slot = 0
        for field, type_text, _ in parser.tables[name]:
            if type_text in parser.unions:
                emit(f"        static let {camel(field + '_type')} = {slot}")
                slot += 1
            emit(f"        static let {camel(field)} = {slot}")
            slot += 1
        emit("    }")
    for name in union_names:
        emit("")
        emit(f"    /// The union `{name}`: its index in ``unions`` and its members' type values.")
        emit(f"    enum {name} {{")
        emit(f"        static let unionIndex = {union_index[name]}")
        for member, value in parser.unions[name]:
            emit(f"        static let {camel(member)}: UInt8 = {value}")
        emit("    }")
    for name, (underlying, values) in parser.enums.items():
        emit("")
        emit(f"    /// The enum `{name}` ({underlying}).")
        emit(f"    enum {name} {{")
        for value_name, value in values:
            emit(f"        static let {camel(value_name)}: Int64 = {value}")
        emit(f"        /// Every value the schema names.")
        emit(f"        static let allValues: Set<Int64> = [{', '.join(str(v) for _, v in values)}]")
        emit("    }")
    emit("}")
    return "\n".join(out) + "\n"


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("schema", help="path to the TFLite schema.fbs")
    arguments.add_argument("--source", required=True, help="where schema.fbs came from (repository, path, commit)")
    arguments.add_argument(
        "--enum-name", default="TFLiteSchema",
        help="the Swift enum to generate (TFLiteSchema, MetadataSchema); the file identifier and root table come from the schema")
    options = arguments.parse_args()
    with open(options.schema, encoding="utf-8") as handle:
        text = handle.read()
    try:
        parser = Parser(tokenize(strip_comments(text)))
        parser.parse()
        sys.stdout.write(generate(parser, options.source, options.enum_name))
    except SchemaError as error:
        sys.exit(f"generate_tflite_schema.py: {error}")


if __name__ == "__main__":
    main()
