// Loader for the LiteRT C API: dlopen libLiteRt.so and fill a TIOLiteRtAPI.

#include "CLiteRT.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The table is filled generically, one pointer-sized slot per function. POSIX
// guarantees that a dlsym() result can be stored in a function pointer, so
// slots are written with memcpy rather than by casting void * to a function
// pointer type (which ISO C leaves undefined).
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers must be pointer-sized");

typedef struct {
  const char *symbol;
  size_t offset;
} TIOSymbol;

#define TIO_SYMBOL(member) {"LiteRt" #member, offsetof(TIOLiteRtAPI, member)}

// Every member of TIOLiteRtAPI except GetStatusString, AddExternalTensorBinding and
// SetCompiledModelCancellationFunction, which are optional.
static const TIOSymbol kRequiredSymbols[] = {
    TIO_SYMBOL(CreateEnvironment),
    TIO_SYMBOL(DestroyEnvironment),
    TIO_SYMBOL(GetNumAccelerators),
    TIO_SYMBOL(GetAccelerator),
    TIO_SYMBOL(GetAcceleratorName),
    TIO_SYMBOL(GetAcceleratorHardwareSupport),

    TIO_SYMBOL(CreateModelFromFile),
    TIO_SYMBOL(CreateModelFromBuffer),
    TIO_SYMBOL(DestroyModel),
    TIO_SYMBOL(GetModelMetadata),
    TIO_SYMBOL(GetNumModelSignatures),
    TIO_SYMBOL(GetModelSignature),

    TIO_SYMBOL(GetSignatureKey),
    TIO_SYMBOL(GetNumSignatureInputs),
    TIO_SYMBOL(GetNumSignatureOutputs),
    TIO_SYMBOL(GetSignatureInputName),
    TIO_SYMBOL(GetSignatureOutputName),
    TIO_SYMBOL(GetSignatureInputTensor),
    TIO_SYMBOL(GetSignatureOutputTensor),
    TIO_SYMBOL(GetSignatureInputTensorByIndex),
    TIO_SYMBOL(GetSignatureOutputTensorByIndex),

    TIO_SYMBOL(GetTensorName),
    TIO_SYMBOL(GetTensorTypeId),
    TIO_SYMBOL(GetRankedTensorType),
    TIO_SYMBOL(GetUnrankedTensorType),
    TIO_SYMBOL(GetQuantizationTypeId),
    TIO_SYMBOL(GetPerTensorQuantization),
    TIO_SYMBOL(GetPerChannelQuantization),

    TIO_SYMBOL(CreateOptions),
    TIO_SYMBOL(DestroyOptions),
    TIO_SYMBOL(SetOptionsHardwareAccelerators),
    TIO_SYMBOL(CreateOpaqueOptions),
    TIO_SYMBOL(DestroyOpaqueOptions),
    TIO_SYMBOL(AddOpaqueOptions),

    TIO_SYMBOL(CreateCompiledModel),
    TIO_SYMBOL(DestroyCompiledModel),
    TIO_SYMBOL(GetCompiledModelInputBufferRequirements),
    TIO_SYMBOL(GetCompiledModelOutputBufferRequirements),
    TIO_SYMBOL(GetCompiledModelInputTensorLayout),
    TIO_SYMBOL(GetCompiledModelOutputTensorLayouts),
    TIO_SYMBOL(CompiledModelIsFullyAccelerated),
    TIO_SYMBOL(CompiledModelResizeInputTensor),
    TIO_SYMBOL(CompiledModelResizeInputTensorNonStrict),
    TIO_SYMBOL(RunCompiledModel),

    TIO_SYMBOL(GetTensorBufferRequirementsBufferSize),
    TIO_SYMBOL(GetNumTensorBufferRequirementsSupportedBufferTypes),
    TIO_SYMBOL(GetTensorBufferRequirementsSupportedTensorBufferType),
    TIO_SYMBOL(GetTensorBufferRequirementsAlignment),
    TIO_SYMBOL(GetTensorBufferRequirementsStrides),

    TIO_SYMBOL(CreateTensorBufferFromHostMemory),
    TIO_SYMBOL(CreateManagedTensorBufferFromRequirements),
    TIO_SYMBOL(CreateManagedTensorBuffer),
    TIO_SYMBOL(GetTensorBufferHostMemory),
    TIO_SYMBOL(GetTensorBufferType),
    TIO_SYMBOL(GetTensorBufferTensorType),
    TIO_SYMBOL(GetTensorBufferSize),
    TIO_SYMBOL(GetTensorBufferPackedSize),
    TIO_SYMBOL(LockTensorBuffer),
    TIO_SYMBOL(UnlockTensorBuffer),
    TIO_SYMBOL(DestroyTensorBuffer),
};

// Catches a member added to TIOLiteRtAPI but not to kRequiredSymbols (the +3
// are the optional ones). The table holds nothing but function pointers.
_Static_assert(sizeof(TIOLiteRtAPI) ==
                   (sizeof(kRequiredSymbols) / sizeof(kRequiredSymbols[0]) + 3) * sizeof(void *),
               "kRequiredSymbols must list every TIOLiteRtAPI member");

// Same names as LiteRT's own LiteRtGetStatusString (litert_common.cc), for
// libraries that do not export it.
static const char *tio_status_string(LiteRtStatus status) {
  switch (status) {
#define TIO_CASE(name) \
  case name:           \
    return #name;
    TIO_CASE(kLiteRtStatusOk)
    TIO_CASE(kLiteRtStatusErrorInvalidArgument)
    TIO_CASE(kLiteRtStatusErrorMemoryAllocationFailure)
    TIO_CASE(kLiteRtStatusErrorRuntimeFailure)
    TIO_CASE(kLiteRtStatusErrorMissingInputTensor)
    TIO_CASE(kLiteRtStatusErrorUnsupported)
    TIO_CASE(kLiteRtStatusErrorNotFound)
    TIO_CASE(kLiteRtStatusErrorTimeoutExpired)
    TIO_CASE(kLiteRtStatusErrorWrongVersion)
    TIO_CASE(kLiteRtStatusErrorUnknown)
    TIO_CASE(kLiteRtStatusErrorAlreadyExists)
    TIO_CASE(kLiteRtStatusCancelled)
    TIO_CASE(kLiteRtStatusErrorFileIO)
    TIO_CASE(kLiteRtStatusErrorInvalidFlatbuffer)
    TIO_CASE(kLiteRtStatusErrorDynamicLoading)
    TIO_CASE(kLiteRtStatusErrorSerialization)
    TIO_CASE(kLiteRtStatusErrorCompilation)
    TIO_CASE(kLiteRtStatusErrorIndexOOB)
    TIO_CASE(kLiteRtStatusErrorInvalidIrType)
    TIO_CASE(kLiteRtStatusErrorInvalidGraphInvariant)
    TIO_CASE(kLiteRtStatusErrorGraphModification)
    TIO_CASE(kLiteRtStatusErrorInvalidToolConfig)
    TIO_CASE(kLiteRtStatusLegalizeNoMatch)
    TIO_CASE(kLiteRtStatusErrorInvalidLegalization)
    TIO_CASE(kLiteRtStatusPatternNoMatch)
    TIO_CASE(kLiteRtStatusInvalidTransformation)
    TIO_CASE(kLiteRtStatusErrorUnsupportedRuntimeVersion)
    TIO_CASE(kLiteRtStatusErrorUnsupportedCompilerVersion)
    TIO_CASE(kLiteRtStatusErrorIncompatibleByteCodeVersion)
    TIO_CASE(kLiteRtStatusErrorUnsupportedOpShapeInferer)
    TIO_CASE(kLiteRtStatusErrorShapeInferenceFailed)
#undef TIO_CASE
  }
  return "Unknown LiteRtStatus";
}

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

const TIOLiteRtAPI *tio_litert_load(const char *path, char *error, size_t error_size) {
  if (error_size > 0) error[0] = '\0';

  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    snprintf(error, error_size, "cannot open %s: %s", path, tio_dlerror_reason(path));
    return NULL;
  }

  TIOLiteRtAPI *api = calloc(1, sizeof(TIOLiteRtAPI));
  if (api == NULL) {
    dlclose(library);
    snprintf(error, error_size, "cannot open %s: out of memory", path);
    return NULL;
  }

  for (size_t i = 0; i < sizeof(kRequiredSymbols) / sizeof(kRequiredSymbols[0]); i++) {
    void *function = dlsym(library, kRequiredSymbols[i].symbol);
    if (function == NULL) {
      snprintf(error, error_size, "%s does not export %s", path, kRequiredSymbols[i].symbol);
      free(api);
      dlclose(library);
      return NULL;
    }
    memcpy((char *)api + kRequiredSymbols[i].offset, &function, sizeof(function));
  }

  void *status_string = dlsym(library, "LiteRtGetStatusString");
  if (status_string != NULL) {
    memcpy(&api->GetStatusString, &status_string, sizeof(status_string));
  } else {
    api->GetStatusString = tio_status_string;
  }

  // NULL when absent: TensorIO then registers every input buffer on each run.
  void *bind_external = dlsym(library, "LiteRtAddExternalTensorBinding");
  memcpy(&api->AddExternalTensorBinding, &bind_external, sizeof(bind_external));

  // NULL when absent: TensorIO then cannot tell which outputs LiteRT refuses (see the header).
  void *cancellation = dlsym(library, "LiteRtSetCompiledModelCancellationFunction");
  memcpy(&api->SetCompiledModelCancellationFunction, &cancellation, sizeof(cancellation));

  // Intentionally leaked together with the library handle: see the header.
  return api;
}
