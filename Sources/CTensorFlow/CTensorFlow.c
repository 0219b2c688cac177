// Loader for the TensorFlow C API: the symbols libtensorflow_cc.so.2 must
// export, for CRuntimeLoader to fill a TIOTensorFlowAPI with.

#include "CTensorFlow.h"

#include "CRuntimeLoader.h"

#define TIO_SYMBOL(member) TIO_RUNTIME_SYMBOL(TIOTensorFlowAPI, "TF_", member)

static const TIORuntimeSymbol kSymbols[] = {
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
_Static_assert(sizeof(TIOTensorFlowAPI) == TIO_RUNTIME_SYMBOL_COUNT(kSymbols) * sizeof(void *),
               "kSymbols must list every TIOTensorFlowAPI member");

const TIOTensorFlowAPI *tio_tensorflow_load(const char *path, char *error, size_t error_size) {
  return tio_runtime_load(path, sizeof(TIOTensorFlowAPI), kSymbols, TIO_RUNTIME_SYMBOL_COUNT(kSymbols), NULL, 0, error,
                          error_size);
}
