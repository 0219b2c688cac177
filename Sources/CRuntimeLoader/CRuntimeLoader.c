// The dlopen loader CLiteRT and CTensorFlow share (see the header).

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // RTLD_DEEPBIND
#endif

#include "CRuntimeLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Tables are filled generically, one pointer-sized slot per function. POSIX
// guarantees that a dlsym() result can be stored in a function pointer, so
// slots are written with memcpy rather than by casting void * to a function
// pointer type (which ISO C leaves undefined).
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers must be pointer-sized");

// dlerror() usually starts with the path itself ("<path>: cannot open shared
// object file: ..."); drop that so the message does not name the path twice.
static const char *tio_dlerror_reason(const char *path) {
  const char *reason = dlerror();
  if (reason == NULL) return "unknown error";
  size_t path_length = strlen(path);
  if (strncmp(reason, path, path_length) == 0 && strncmp(reason + path_length, ": ", 2) == 0) {
    return reason + path_length + 2;
  }
  return reason;
}

// A runtime binds its symbols to its own copies first (RTLD_DEEPBIND): the TensorFlow runtime carries its own
// protobuf, abseil and RE2, and without it, its references would bind to the copies already in the process
// under the same names — libsentencepiece exports its embedded protobuf, for one, which TensorIOText links —
// and TensorFlow aborts while registering its protobuf descriptors. The sanitizers' runtimes refuse
// RTLD_DEEPBIND (google/sanitizers#611): sanitized builds (the thread-sanitizer tests, the fuzz targets)
// open runtimes as before.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TIO_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TIO_SANITIZED 1
#endif
#if defined(RTLD_DEEPBIND) && !defined(TIO_SANITIZED)
#define TIO_RUNTIME_DEEPBIND RTLD_DEEPBIND
#else
#define TIO_RUNTIME_DEEPBIND 0
#endif

static void tio_store(void *table, const TIORuntimeSymbol *symbol, void *function) {
  memcpy((char *)table + symbol->offset, &function, sizeof(function));
}

void *tio_runtime_load(const char *path, size_t table_size, const TIORuntimeSymbol *required, size_t required_count,
                       const TIORuntimeSymbol *optional, size_t optional_count, char *error, size_t error_size) {
  if (error_size > 0) error[0] = '\0';

  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL | TIO_RUNTIME_DEEPBIND);
  if (library == NULL) {
    snprintf(error, error_size, "cannot open %s: %s", path, tio_dlerror_reason(path));
    return NULL;
  }

  void *table = calloc(1, table_size);
  if (table == NULL) {
    dlclose(library);
    snprintf(error, error_size, "cannot open %s: out of memory", path);
    return NULL;
  }

  for (size_t i = 0; i < required_count; i++) {
    void *function = dlsym(library, required[i].name);
    if (function == NULL) {
      snprintf(error, error_size, "%s does not export %s", path, required[i].name);
      free(table);
      dlclose(library);
      return NULL;
    }
    tio_store(table, &required[i], function);
  }
  for (size_t i = 0; i < optional_count; i++) {
    tio_store(table, &optional[i], dlsym(library, optional[i].name));
  }

  // Intentionally leaked together with the library handle: see the header.
  return table;
}
