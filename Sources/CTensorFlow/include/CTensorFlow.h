// CTensorFlow: our own declarations of the part of the TensorFlow C API that
// TensorIO's "tensorflow" backend uses, plus a loader that resolves them from
// libtensorflow_cc.so.2 at run time.
//
// Why not the official headers and a link-time dependency? For the same
// reasons as CLiteRT: the headers ship only inside a 274 MB wheel, linking
// needs unsafe flags, and with dlopen `swift build` needs no TensorFlow at all
// while users who only run TensorFlow Lite models never pay for it.
//
// Everything here mirrors tensorflow/c/{c_api.h, tf_buffer.h, tf_datatype.h,
// tf_status.h, tf_tensor.h, tf_tstring.h} as shipped in PyPI tensorflow-cpu
// 2.21.0 (checked on x86-64 Linux). The C API has been stable since TF 1.x;
// the struct layouts below are pinned with _Static_assert.

#ifndef TENSORIO_CTENSORFLOW_H
#define TENSORIO_CTENSORFLOW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma clang assume_nonnull begin

// MARK: - Handles (opaque; Swift imports them as OpaquePointer)

typedef struct TF_Status TF_Status;
typedef struct TF_Graph TF_Graph;
typedef struct TF_Operation TF_Operation;
typedef struct TF_Session TF_Session;
typedef struct TF_SessionOptions TF_SessionOptions;
typedef struct TF_Tensor TF_Tensor;

// MARK: - Enums (plain ints so Swift sees Int32 values)

typedef int TF_DataType;
enum : int {
  TF_FLOAT = 1,
  TF_DOUBLE = 2,
  TF_INT32 = 3,
  TF_UINT8 = 4,
  TF_INT16 = 5,
  TF_INT8 = 6,
  TF_STRING = 7,
  TF_INT64 = 9,
  TF_BOOL = 10,
  TF_UINT16 = 17,
  TF_HALF = 19,
  TF_RESOURCE = 20,
  TF_UINT32 = 22,
  TF_UINT64 = 23,
};

typedef int TF_Code;
enum : int {
  TF_OK = 0,
  TF_CANCELLED = 1,
  TF_UNKNOWN = 2,
  TF_INVALID_ARGUMENT = 3,
  TF_DEADLINE_EXCEEDED = 4,
  TF_NOT_FOUND = 5,
  TF_ALREADY_EXISTS = 6,
  TF_PERMISSION_DENIED = 7,
  TF_UNAUTHENTICATED = 16,
  TF_RESOURCE_EXHAUSTED = 8,
  TF_FAILED_PRECONDITION = 9,
  TF_ABORTED = 10,
  TF_OUT_OF_RANGE = 11,
  TF_UNIMPLEMENTED = 12,
  TF_INTERNAL = 13,
  TF_UNAVAILABLE = 14,
  TF_DATA_LOSS = 15,
};

// MARK: - Structs

// A serialized protocol buffer (or any bytes) handed across the API.
typedef struct TF_Buffer {
  const void *_Nullable data;
  size_t length;
  void (*_Nullable data_deallocator)(void *_Nullable data, size_t length);
} TF_Buffer;
_Static_assert(sizeof(TF_Buffer) == 24, "TF_Buffer layout");

// One output of an operation: the graph endpoint that feeds and fetches name.
typedef struct TF_Output {
  TF_Operation *_Nullable oper;
  int index;
} TF_Output;
_Static_assert(sizeof(TF_Output) == 16, "TF_Output layout");

// The element of a TF_STRING tensor (tsl/platform/ctstring_internal.h): a
// 24-byte small-string-optimised union. Only TF_StringInit / TF_StringCopy /
// TF_StringDealloc touch its inside.
typedef struct TF_TString {
  _Alignas(8) uint8_t raw[24];
} TF_TString;
_Static_assert(sizeof(TF_TString) == 24, "TF_TString layout");

// MARK: - The function table

// Frees tensor memory we allocated ourselves (TF_NewTensor's deallocator).
typedef void (*TF_Deallocator)(void *data, size_t length, void *_Nullable arg);

typedef struct TIOTensorFlowAPI {
  const char *_Nonnull (*_Nonnull Version)(void);

  // Status
  TF_Status *_Nonnull (*_Nonnull NewStatus)(void);
  void (*_Nonnull DeleteStatus)(TF_Status *status);
  TF_Code (*_Nonnull GetCode)(const TF_Status *status);
  const char *_Nonnull (*_Nonnull Message)(const TF_Status *status);

  // Buffers
  TF_Buffer *_Nonnull (*_Nonnull NewBuffer)(void);
  void (*_Nonnull DeleteBuffer)(TF_Buffer *_Nullable buffer);

  // Graphs and operations
  TF_Graph *_Nonnull (*_Nonnull NewGraph)(void);
  void (*_Nonnull DeleteGraph)(TF_Graph *_Nullable graph);
  TF_Operation *_Nullable (*_Nonnull GraphOperationByName)(TF_Graph *graph, const char *name);
  int (*_Nonnull OperationNumOutputs)(TF_Operation *operation);
  TF_DataType (*_Nonnull OperationOutputType)(TF_Output output);
  const char *_Nonnull (*_Nonnull OperationOpType)(TF_Operation *operation);
  int (*_Nonnull GraphGetTensorNumDims)(TF_Graph *graph, TF_Output output, TF_Status *status);
  void (*_Nonnull GraphGetTensorShape)(TF_Graph *graph, TF_Output output, int64_t *dims, int count,
                              TF_Status *status);

  // Sessions
  TF_SessionOptions *_Nonnull (*_Nonnull NewSessionOptions)(void);
  void (*_Nonnull SetConfig)(TF_SessionOptions *options, const void *proto, size_t length, TF_Status *status);
  void (*_Nonnull DeleteSessionOptions)(TF_SessionOptions *_Nullable options);
  TF_Session *_Nullable (*_Nonnull LoadSessionFromSavedModel)(
      const TF_SessionOptions *options, const TF_Buffer *_Nullable runOptions, const char *exportDirectory,
      const char *const _Nonnull *_Nonnull tags, int tagCount, TF_Graph *graph,
      TF_Buffer *_Nullable metaGraphDef, TF_Status *status);
  void (*_Nonnull SessionRun)(TF_Session *session, const TF_Buffer *_Nullable runOptions,
                     const TF_Output *_Nullable inputs, TF_Tensor *const _Nonnull *_Nullable inputValues,
                     int inputCount, const TF_Output *_Nullable outputs,
                     TF_Tensor *_Nullable *_Nullable outputValues, int outputCount,
                     const TF_Operation *const _Nonnull *_Nullable targets, int targetCount,
                     TF_Buffer *_Nullable runMetadata, TF_Status *status);
  void (*_Nonnull CloseSession)(TF_Session *session, TF_Status *status);
  void (*_Nonnull DeleteSession)(TF_Session *session, TF_Status *status);

  // Tensors
  TF_Tensor *_Nullable (*_Nonnull AllocateTensor)(TF_DataType type, const int64_t *_Nullable dims, int dimCount,
                                         size_t length);
  void (*_Nonnull DeleteTensor)(TF_Tensor *_Nullable tensor);
  TF_DataType (*_Nonnull TensorType)(const TF_Tensor *tensor);
  int (*_Nonnull NumDims)(const TF_Tensor *tensor);
  int64_t (*_Nonnull Dim)(const TF_Tensor *tensor, int index);
  size_t (*_Nonnull TensorByteSize)(const TF_Tensor *tensor);
  void *_Nullable (*_Nonnull TensorData)(const TF_Tensor *tensor);

  // Strings (the elements of TF_STRING tensors)
  void (*_Nonnull StringInit)(TF_TString *string);
  void (*_Nonnull StringCopy)(TF_TString *string, const char *source, size_t size);
  void (*_Nonnull StringDealloc)(TF_TString *string);
} TIOTensorFlowAPI;

// Loads the library at `path` (a file path, or a bare name for the system's
// search path) and resolves every function above, with CRuntimeLoader's
// tio_runtime_load. On failure returns NULL and writes a message naming the
// library or the missing symbol into `error`. The library is never closed:
// the returned table lives for the process.
const TIOTensorFlowAPI *_Nullable tio_tensorflow_load(const char *path, char *error, size_t errorSize);

#pragma clang assume_nonnull end

#ifdef __cplusplus
}
#endif

#endif  // TENSORIO_CTENSORFLOW_H
