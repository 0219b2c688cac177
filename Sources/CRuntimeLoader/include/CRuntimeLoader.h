// CRuntimeLoader: the one dlopen loader behind CLiteRT and CTensorFlow.
//
// Each of those declares a table of function pointers (TIOLiteRtAPI,
// TIOTensorFlowAPI) and lists, for each member, the symbol the runtime library
// exports and where the member lies in the table. This fills such a table from
// a library file, so that opening, resolving, cleaning up after a failure and
// the wording of every error are written once.

#ifndef TENSORIO_CRUNTIMELOADER_H
#define TENSORIO_CRUNTIMELOADER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma clang assume_nonnull begin

// One function of a runtime: its exported name and the offset of its function
// pointer in the caller's table.
typedef struct TIORuntimeSymbol {
  const char *name;
  size_t offset;
} TIORuntimeSymbol;

// {"<prefix><member>", offsetof(Table, member)}: the API's table member
// `member` resolved from the exported symbol of that name with the API's prefix.
#define TIO_RUNTIME_SYMBOL(Table, prefix, member) {prefix #member, offsetof(Table, member)}

// The number of entries of a symbol list (a C array, not a pointer).
#define TIO_RUNTIME_SYMBOL_COUNT(list) (sizeof(list) / sizeof((list)[0]))

// Opens the library at `path` (a file path, or a bare name for the system's
// search path) with dlopen(RTLD_NOW | RTLD_LOCAL), allocates a zeroed table of
// `table_size` bytes and stores in it the address of every `required` symbol
// (each must be exported) and of every `optional` symbol the library exports
// (a missing one stays NULL).
//
// RTLD_LOCAL keeps each runtime's many C++ symbols (TensorFlow's own protobuf,
// absl and TensorFlow Lite copy) from colliding with another's in one process.
//
// On success returns the table, which is never freed, and the library is never
// closed: the runtime's objects and functions stay valid for the life of the
// process. On failure returns NULL, closes the library again and writes one
// NUL-terminated line into `error` (truncated to `error_size` bytes):
//   "cannot open <path>: <reason from dlerror>"
//   "<path> does not export <symbol>"
//   "cannot open <path>: out of memory"
//
// Not thread-safe (dlerror() is shared state): the caller serializes calls and
// keeps the result. Each successful call allocates a new table.
void *_Nullable tio_runtime_load(const char *path, size_t table_size, const TIORuntimeSymbol *required,
                                 size_t required_count, const TIORuntimeSymbol *_Nullable optional,
                                 size_t optional_count, char *error, size_t error_size);

#pragma clang assume_nonnull end

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // TENSORIO_CRUNTIMELOADER_H
