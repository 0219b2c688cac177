// Loader for the LiteRT C API: the symbols libLiteRt.so must and may export,
// for CRuntimeLoader to fill a TIOLiteRtAPI with.

#include "CLiteRT.h"

#include "CRuntimeLoader.h"

#define TIO_SYMBOL(member) TIO_RUNTIME_SYMBOL(TIOLiteRtAPI, "LiteRt", member)

// Every member of TIOLiteRtAPI but the optional ones below.
static const TIORuntimeSymbol kRequiredSymbols[] = {
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

// NULL when the library does not export them:
//  - GetStatusString: then the copy below (tio_status_string);
//  - AddExternalTensorBinding: TensorIO then registers every input buffer on each run;
//  - SetCompiledModelCancellationFunction: TensorIO then cannot tell which outputs
//    LiteRT refuses (see the header).
static const TIORuntimeSymbol kOptionalSymbols[] = {
    TIO_SYMBOL(GetStatusString),
    TIO_SYMBOL(AddExternalTensorBinding),
    TIO_SYMBOL(SetCompiledModelCancellationFunction),
};

// Catches a member added to TIOLiteRtAPI but to neither list. The table holds
// nothing but function pointers.
_Static_assert(sizeof(TIOLiteRtAPI) ==
                   (TIO_RUNTIME_SYMBOL_COUNT(kRequiredSymbols) + TIO_RUNTIME_SYMBOL_COUNT(kOptionalSymbols)) *
                       sizeof(void *),
               "kRequiredSymbols and kOptionalSymbols must list every TIOLiteRtAPI member");

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

const TIOLiteRtAPI *tio_litert_load(const char *path, char *error, size_t error_size) {
  TIOLiteRtAPI *api = tio_runtime_load(path, sizeof(TIOLiteRtAPI), kRequiredSymbols,
                                       TIO_RUNTIME_SYMBOL_COUNT(kRequiredSymbols), kOptionalSymbols,
                                       TIO_RUNTIME_SYMBOL_COUNT(kOptionalSymbols), error, error_size);
  if (api != NULL && api->GetStatusString == NULL) api->GetStatusString = tio_status_string;
  return api;
}
