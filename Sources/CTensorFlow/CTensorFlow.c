// Loader for the TensorFlow C API: dlopen libtensorflow_cc.so.2 and fill a TIOTensorFlowAPI.

#include "CTensorFlow.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// As in CLiteRT: one pointer-sized slot per function, written with memcpy
// (POSIX lets a dlsym() result be stored in a function pointer).
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers must be pointer-sized");

typedef struct {
  const char *symbol;
  size_t offset;
} TIOSymbol;

#define TIO_SYMBOL(member) {"TF_" #member, offsetof(TIOTensorFlowAPI, member)}

static const TIOSymbol kSymbols[] = {
    TIO_SYMBOL(Version),
    TIO_SYMBOL(NewStatus),
    TIO_SYMBOL(DeleteStatus),
    TIO_SYMBOL(GetCode),
    TIO_SYMBOL(Message),
    TIO_SYMBOL(NewBuffer),
    TIO_SYMBOL(DeleteBuffer),
    TIO_SYMBOL(NewGraph),
    TIO_SYMBOL(DeleteGraph),
    TIO_SYMBOL(GraphOperationByName),
    TIO_SYMBOL(OperationNumOutputs),
    TIO_SYMBOL(OperationOutputType),
    TIO_SYMBOL(OperationOpType),
    TIO_SYMBOL(GraphGetTensorNumDims),
    TIO_SYMBOL(GraphGetTensorShape),
    TIO_SYMBOL(NewSessionOptions),
    TIO_SYMBOL(SetConfig),
    TIO_SYMBOL(DeleteSessionOptions),
    TIO_SYMBOL(LoadSessionFromSavedModel),
    TIO_SYMBOL(SessionRun),
    TIO_SYMBOL(CloseSession),
    TIO_SYMBOL(DeleteSession),
    TIO_SYMBOL(AllocateTensor),
    TIO_SYMBOL(DeleteTensor),
    TIO_SYMBOL(TensorType),
    TIO_SYMBOL(NumDims),
    TIO_SYMBOL(Dim),
    TIO_SYMBOL(TensorByteSize),
    TIO_SYMBOL(TensorData),
    TIO_SYMBOL(StringInit),
    TIO_SYMBOL(StringCopy),
    TIO_SYMBOL(StringDealloc),
};

// Catches a member added to TIOTensorFlowAPI but not to kSymbols.
_Static_assert(sizeof(TIOTensorFlowAPI) == sizeof(kSymbols) / sizeof(kSymbols[0]) * sizeof(void *),
               "kSymbols must list every TIOTensorFlowAPI member");

// dlerror() repeats the path in front of the reason; keep only the reason.
static const char *tio_dlerror_reason(const char *path) {
  const char *reason = dlerror();
  if (reason == NULL) return "unknown error";
  size_t path_length = strlen(path);
  if (strncmp(reason, path, path_length) == 0 && strncmp(reason + path_length, ": ", 2) == 0) {
    return reason + path_length + 2;
  }
  return reason;
}

const TIOTensorFlowAPI *tio_tensorflow_load(const char *path, char *error, size_t error_size) {
  if (error_size > 0) error[0] = '\0';

  // RTLD_LOCAL keeps TensorFlow's many C++ symbols (its own protobuf, absl, a
  // TensorFlow Lite copy) from colliding with LiteRT's in the same process.
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    snprintf(error, error_size, "cannot open %s: %s", path, tio_dlerror_reason(path));
    return NULL;
  }

  TIOTensorFlowAPI *api = calloc(1, sizeof(TIOTensorFlowAPI));
  if (api == NULL) {
    dlclose(library);
    snprintf(error, error_size, "cannot open %s: out of memory", path);
    return NULL;
  }

  for (size_t i = 0; i < sizeof(kSymbols) / sizeof(kSymbols[0]); i++) {
    void *function = dlsym(library, kSymbols[i].symbol);
    if (function == NULL) {
      snprintf(error, error_size, "%s does not export %s", path, kSymbols[i].symbol);
      free(api);
      dlclose(library);
      return NULL;
    }
    memcpy((char *)api + kSymbols[i].offset, &function, sizeof(function));
  }

  // Intentionally leaked together with the library handle: see the header.
  return api;
}
