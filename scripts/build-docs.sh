#!/usr/bin/env bash
# Builds the DocC documentation of the seven libraries with the toolchain's own docc, warnings as errors
# (`make docs`; `make test` runs it last). Any unresolved symbol link, broken article link or documented
# parameter that does not exist fails the build.
#
#   scripts/build-docs.sh                 every library
#   scripts/build-docs.sh TensorIO        only the libraries named
#
# Symbol graphs come from `swift package dump-symbol-graph`, which builds the package in the default
# debug configuration in .build — the build `swift test` has just made, so in `make test` it compiles
# nothing again. Output: .build/docs/NAME.doccarchive (DOCS_OUTPUT changes the folder).
#
# Each library is converted on its own, so TensorIODelivery and TensorIORepositoryServer cannot link to
# TensorIO's symbols: their comments name them in code voice (`TensorIOError`), not as ``links``.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
DOCC=${DOCC:-}
if [ -z "$DOCC" ]; then
    # The toolchain's docc sits next to its swift; `xcrun` finds it on macOS.
    swift_path=$(command -v "$SWIFT" || true)
    if [ -n "$swift_path" ] && [ -x "$(dirname "$(readlink -f "$swift_path")")/docc" ]; then
        DOCC="$(dirname "$(readlink -f "$swift_path")")/docc"
    elif command -v docc > /dev/null; then
        DOCC=docc
    elif command -v xcrun > /dev/null; then
        DOCC=$(xcrun --find docc)
    else
        echo "error: docc not found: it comes with the Swift toolchain (set DOCC=/path/to/docc)" >&2
        exit 1
    fi
fi

OUTPUT=${DOCS_OUTPUT:-.build/docs}
LIBRARIES=("$@")
if [ ${#LIBRARIES[@]} -eq 0 ]; then
    LIBRARIES=(TensorIO TensorIOVision TensorIOAudio TensorIOText TensorIOVideo TensorIODelivery TensorIORepositoryServer)
fi

# Extension blocks: TensorIODelivery extends TensorIO's types (its error codes), which DocC can only show
# and link to with them. dump-symbol-graph also tries the test targets' modules and fails on them when
# only the libraries are built; that failure is not ours, so what counts is that each library's graph
# was written by this run.
echo "Extracting symbol graphs..." >&2
dump_log=$(mktemp)
started=$(mktemp)
trap 'rm -f "$dump_log" "$started"' EXIT
"$SWIFT" package --traits Server dump-symbol-graph --emit-extension-block-symbols > "$dump_log" 2>&1 || true
# SwiftPM ends with "Files written to <folder>".
graphs=$(sed -n 's/^Files written to //p' "$dump_log" | tail -1)
for library in "${LIBRARIES[@]}"; do
    if [ -z "$graphs" ] || [ ! "$graphs/$library.symbols.json" -nt "$started" ]; then
        grep -E 'error|warning' "$dump_log" >&2 || cat "$dump_log" >&2
        echo "error: swift package dump-symbol-graph wrote no symbol graph for $library" >&2
        exit 1
    fi
done

mkdir -p "$OUTPUT/symbol-graphs"
status=0
for library in "${LIBRARIES[@]}"; do
    catalog="Sources/$library/$library.docc"
    if [ ! -d "$catalog" ]; then
        echo "error: $catalog does not exist" >&2
        exit 1
    fi
    # One folder per library, holding only its own graphs (NAME.symbols.json and NAME@Module.symbols.json
    # for its extensions of other modules' types).
    library_graphs="$OUTPUT/symbol-graphs/$library"
    rm -rf "$library_graphs" "$OUTPUT/$library.doccarchive"
    mkdir -p "$library_graphs"
    cp "$graphs/$library.symbols.json" "$library_graphs/"
    for extension_graph in "$graphs/$library@"*.symbols.json; do
        [ -e "$extension_graph" ] && cp "$extension_graph" "$library_graphs/"
    done

    echo "Building $library documentation..." >&2
    if ! "$DOCC" convert "$catalog" \
        --additional-symbol-graph-dir "$library_graphs" \
        --fallback-display-name "$library" \
        --fallback-bundle-identifier "$library" \
        --output-path "$OUTPUT/$library.doccarchive" \
        --warnings-as-errors; then
        echo "error: the $library documentation has warnings or errors (above)" >&2
        status=1
    fi
done
[ $status -eq 0 ] && echo "Documentation in $OUTPUT" >&2
exit $status
