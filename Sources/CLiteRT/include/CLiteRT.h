// CLiteRT: our own declarations of the part of the LiteRT C API that TensorIO
// uses, plus a loader that resolves them from libLiteRt.so at run time.
//
// Why not the official headers and a link-time dependency?
//  - No wheel ships the LiteRT C headers, and the real headers drag in
//    build_config.h, OpenCL/GL types and C++-only declarations.
//  - Linking needs -L/rpath (unsafeFlags, which SwiftPM rejects in versioned
//    dependencies). With dlopen, `swift build` needs no ML library at all and
//    users who never run a .tflite model pay nothing.
//  - A missing symbol fails once, at load time, with a readable message.
//
// Everything here mirrors google-ai-edge/LiteRT litert/c/*.h as exported by
// libLiteRt.so from PyPI ai-edge-litert 2.3.0 (checked on x86-64 Linux).
// Struct layouts are pinned with _Static_assert to the values the real headers
// assert for 64-bit targets, so a slip in these declarations fails to compile
// instead of corrupting memory at run time.
//
// Enums are `typedef int` with constants in an anonymous `enum : int`, so Swift
// sees plain Int32 values (`status == kLiteRtStatusOk`, bit-or of accelerator
// flags) rather than imported wrapper structs. Fixed enum underlying types are
// C23; clang accepts them in earlier modes as an extension.

#ifndef TENSORIO_CLITERT_H
#define TENSORIO_CLITERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma clang assume_nonnull begin

// MARK: - Handles
//
// All LiteRT objects are opaque; Swift imports these as OpaquePointer.

typedef struct LiteRtEnvironmentT *LiteRtEnvironment;
typedef struct LiteRtModelT *LiteRtModel;
typedef struct LiteRtSignatureT *LiteRtSignature;
typedef struct LiteRtTensorT *LiteRtTensor;
typedef struct LiteRtOptionsT *LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT *LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT *LiteRtCompiledModel;
typedef struct LiteRtTensorBufferT *LiteRtTensorBuffer;
typedef struct LiteRtTensorBufferRequirementsT *LiteRtTensorBufferRequirements;
typedef struct LiteRtAcceleratorT *LiteRtAccelerator;

// Index into, or count of, LiteRT collections (signatures, inputs, ...).
typedef size_t LiteRtParamIndex;

// MARK: - Enums

typedef int LiteRtStatus;
enum : int {
  kLiteRtStatusOk = 0,

  kLiteRtStatusErrorInvalidArgument = 1,
  kLiteRtStatusErrorMemoryAllocationFailure = 2,
  kLiteRtStatusErrorRuntimeFailure = 3,
  kLiteRtStatusErrorMissingInputTensor = 4,
  kLiteRtStatusErrorUnsupported = 5,
  kLiteRtStatusErrorNotFound = 6,
  kLiteRtStatusErrorTimeoutExpired = 7,
  kLiteRtStatusErrorWrongVersion = 8,
  kLiteRtStatusErrorUnknown = 9,
  kLiteRtStatusErrorAlreadyExists = 10,

  kLiteRtStatusCancelled = 100,

  kLiteRtStatusErrorFileIO = 500,
  kLiteRtStatusErrorInvalidFlatbuffer = 501,
  kLiteRtStatusErrorDynamicLoading = 502,
  kLiteRtStatusErrorSerialization = 503,
  kLiteRtStatusErrorCompilation = 504,

  kLiteRtStatusErrorIndexOOB = 1000,
  kLiteRtStatusErrorInvalidIrType = 1001,
  kLiteRtStatusErrorInvalidGraphInvariant = 1002,
  kLiteRtStatusErrorGraphModification = 1003,

  kLiteRtStatusErrorInvalidToolConfig = 1500,

  kLiteRtStatusLegalizeNoMatch = 2000,
  kLiteRtStatusErrorInvalidLegalization = 2001,

  kLiteRtStatusPatternNoMatch = 3000,
  kLiteRtStatusInvalidTransformation = 3001,

  kLiteRtStatusErrorUnsupportedRuntimeVersion = 4000,
  kLiteRtStatusErrorUnsupportedCompilerVersion = 4001,
  kLiteRtStatusErrorIncompatibleByteCodeVersion = 4002,

  kLiteRtStatusErrorUnsupportedOpShapeInferer = 5000,
  kLiteRtStatusErrorShapeInferenceFailed = 5001,
};

// A bit set of kLiteRtHwAccelerator* values. Fresh LiteRtOptions have no
// accelerator set, and compiling with none fails: always set CPU at least.
typedef int LiteRtHwAcceleratorSet;
enum : int {
  kLiteRtHwAcceleratorNone = 0,
  kLiteRtHwAcceleratorCpu = 1 << 0,
  kLiteRtHwAcceleratorGpu = 1 << 1,
  kLiteRtHwAcceleratorNpu = 1 << 2,
};

// TfLiteType numbering, so it maps 1:1 onto the flatbuffer schema.
typedef int LiteRtElementType;
enum : int {
  kLiteRtElementTypeNone = 0,
  kLiteRtElementTypeFloat32 = 1,
  kLiteRtElementTypeInt32 = 2,
  kLiteRtElementTypeUInt8 = 3,
  kLiteRtElementTypeInt64 = 4,
  kLiteRtElementTypeTfString = 5,
  kLiteRtElementTypeBool = 6,
  kLiteRtElementTypeInt16 = 7,
  kLiteRtElementTypeComplex64 = 8,
  kLiteRtElementTypeInt8 = 9,
  kLiteRtElementTypeFloat16 = 10,
  kLiteRtElementTypeFloat64 = 11,
  kLiteRtElementTypeComplex128 = 12,
  kLiteRtElementTypeUInt64 = 13,
  kLiteRtElementTypeTfResource = 14,
  kLiteRtElementTypeTfVariant = 15,
  kLiteRtElementTypeUInt32 = 16,
  kLiteRtElementTypeUInt16 = 17,
  kLiteRtElementTypeInt4 = 18,
  kLiteRtElementTypeBFloat16 = 19,
  kLiteRtElementTypeInt2 = 20,
};

typedef int LiteRtTensorTypeId;
enum : int {
  kLiteRtRankedTensorType = 0,
  kLiteRtUnrankedTensorType = 1,
};

typedef int LiteRtQuantizationTypeId;
enum : int {
  kLiteRtQuantizationNone = 0,
  kLiteRtQuantizationPerTensor = 1,
  kLiteRtQuantizationPerChannel = 2,
  kLiteRtQuantizationBlockWise = 3,
};

// Only host memory matters on desktop Linux; the GPU/NPU kinds are listed so
// that a requirements query returning them can be recognised and reported.
typedef int LiteRtTensorBufferType;
enum : int {
  kLiteRtTensorBufferTypeUnknown = 0,
  kLiteRtTensorBufferTypeHostMemory = 1,
  kLiteRtTensorBufferTypeAhwb = 2,
  kLiteRtTensorBufferTypeIon = 3,
  kLiteRtTensorBufferTypeDmaBuf = 4,
  kLiteRtTensorBufferTypeFastRpc = 5,
  kLiteRtTensorBufferTypeGlBuffer = 6,
  kLiteRtTensorBufferTypeGlTexture = 7,
  kLiteRtTensorBufferTypeOpenClBuffer = 10,
  kLiteRtTensorBufferTypeOpenClBufferFp16 = 11,
  kLiteRtTensorBufferTypeOpenClTexture = 12,
  kLiteRtTensorBufferTypeOpenClTextureFp16 = 13,
  kLiteRtTensorBufferTypeOpenClBufferPacked = 14,
};

typedef int LiteRtTensorBufferLockMode;
enum : int {
  kLiteRtTensorBufferLockModeRead = 0,
  kLiteRtTensorBufferLockModeWrite = 1,
  kLiteRtTensorBufferLockModeReadWrite = 2,
};

typedef int LiteRtAnyType;
enum : int {
  kLiteRtAnyTypeNone = 0,
  kLiteRtAnyTypeBool = 1,
  kLiteRtAnyTypeInt = 2,
  kLiteRtAnyTypeReal = 3,
  kLiteRtAnyTypeString = 8,
  kLiteRtAnyTypeVoidPtr = 9,
};

// Environment option tags we may set. The full list (OpenCL/EGL/WebGPU/Metal
// handles, magic numbers, ...) runs 0...25; only these make sense for us.
typedef int LiteRtEnvOptionTag;
enum : int {
  kLiteRtEnvOptionTagCompilerPluginLibraryDir = 0,  // string
  kLiteRtEnvOptionTagDispatchLibraryDir = 1,        // string
  kLiteRtEnvOptionTagCompilerCacheDir = 18,         // string
  kLiteRtEnvOptionTagRuntimeLibraryDir = 22,        // string
  // Bit set of accelerators to register; unset = all. kLiteRtHwAcceleratorCpu
  // skips the NPU lookup and the dlopen attempts for libLiteRt{Gpu,WebGpu,
  // OpenCl,Vulkan}Accelerator.so that every environment otherwise makes.
  kLiteRtEnvOptionTagAutoRegisterAccelerators = 24,  // int
  // Minimum severity LiteRT logs to stderr; see kLiteRtLogSeverity*.
  kLiteRtEnvOptionTagMinLoggerSeverity = 25,  // int
};

// Values for kLiteRtEnvOptionTagMinLoggerSeverity (tflite::LogSeverity).
// This governs LiteRT's logger only: the TFLite interpreter underneath still
// prints its own lines even at Silent ("INFO: Created TensorFlow Lite XNNPACK
// delegate for CPU." once per process, "ERROR: Could not open '<file>'."), and
// libLiteRt.so 2.3.0 exports none of the logger functions (LiteRtSetDefaultLogger,
// LiteRtSetMinLoggerSeverity...) of litert/c/internal/litert_logging.h: TensorIO
// captures stderr around loading and compiling instead (RuntimeOutput.swift).
enum : int {
  kLiteRtLogSeverityDebug = -1,
  kLiteRtLogSeverityVerbose = 0,
  kLiteRtLogSeverityInfo = 1,
  kLiteRtLogSeverityWarning = 2,
  kLiteRtLogSeverityError = 3,
  kLiteRtLogSeveritySilent = 4,
};

// MARK: - Structs

#define LITERT_TENSOR_MAX_RANK 8

// Host buffers given to CreateTensorBufferFromHostMemory must be aligned to
// this; a misaligned address makes the call fail with RuntimeFailure.
#define LITERT_HOST_MEMORY_BUFFER_ALIGNMENT 64

// Shape of a ranked tensor. Dimensions < 0 are dynamic (e.g. Keras' batch
// dimension in the model; the compiled model's layouts have the real value).
// The bit-fields are the real header's; Swift imports them as properties.
typedef struct {
  unsigned int rank : 7;
  bool has_strides : 1;
  int32_t dimensions[LITERT_TENSOR_MAX_RANK];
  uint32_t strides[LITERT_TENSOR_MAX_RANK];  // meaningful only if has_strides
} LiteRtLayout;

typedef struct {
  LiteRtElementType element_type;
} LiteRtUnrankedTensorType;

typedef struct {
  LiteRtElementType element_type;
  LiteRtLayout layout;
} LiteRtRankedTensorType;

// real = (quantized - zero_point) * scale
typedef struct {
  float scale;
  int64_t zero_point;
} LiteRtQuantizationPerTensor;

// scales and zero_points have num_channels entries each and are owned by the
// model (valid until DestroyModel).
typedef struct {
  int32_t quantized_dimension;
  uint64_t num_channels;
  float *_Nullable scales;
  int64_t *_Nullable zero_points;
} LiteRtQuantizationPerChannel;

// Tagged value; `type` says which union member is live.
typedef struct {
  LiteRtAnyType type;
  union {
    bool bool_value;
    int64_t int_value;
    double real_value;
    const char *_Nullable str_value;
    const void *_Nullable ptr_value;
  };
} LiteRtAny;

typedef struct {
  LiteRtEnvOptionTag tag;
  LiteRtAny value;
} LiteRtEnvOption;

// Sizes and offsets on 64-bit targets, the values the real headers assert
// (they pin nothing for 32-bit targets, and neither do we). offsetof cannot
// name a bit-field, so LiteRtLayout is pinned by the arrays that follow them.
#if defined(__LP64__)
#define TIO_ASSERT_SIZE(type, size) _Static_assert(sizeof(type) == (size), "sizeof(" #type ")")
#define TIO_ASSERT_OFFSET(type, field, offset) \
  _Static_assert(offsetof(type, field) == (offset), "offsetof(" #type ", " #field ")")
TIO_ASSERT_SIZE(LiteRtLayout, 68);
TIO_ASSERT_OFFSET(LiteRtLayout, dimensions, 4);
TIO_ASSERT_OFFSET(LiteRtLayout, strides, 36);
TIO_ASSERT_SIZE(LiteRtUnrankedTensorType, 4);
TIO_ASSERT_SIZE(LiteRtRankedTensorType, 72);
TIO_ASSERT_OFFSET(LiteRtRankedTensorType, element_type, 0);
TIO_ASSERT_OFFSET(LiteRtRankedTensorType, layout, 4);
TIO_ASSERT_SIZE(LiteRtQuantizationPerTensor, 16);
TIO_ASSERT_OFFSET(LiteRtQuantizationPerTensor, scale, 0);
TIO_ASSERT_OFFSET(LiteRtQuantizationPerTensor, zero_point, 8);
TIO_ASSERT_SIZE(LiteRtQuantizationPerChannel, 32);
TIO_ASSERT_OFFSET(LiteRtQuantizationPerChannel, quantized_dimension, 0);
TIO_ASSERT_OFFSET(LiteRtQuantizationPerChannel, num_channels, 8);
TIO_ASSERT_OFFSET(LiteRtQuantizationPerChannel, scales, 16);
TIO_ASSERT_OFFSET(LiteRtQuantizationPerChannel, zero_points, 24);
TIO_ASSERT_SIZE(LiteRtAny, 16);
TIO_ASSERT_OFFSET(LiteRtAny, type, 0);
TIO_ASSERT_OFFSET(LiteRtAny, int_value, 8);
TIO_ASSERT_SIZE(LiteRtEnvOption, 24);
TIO_ASSERT_OFFSET(LiteRtEnvOption, tag, 0);
TIO_ASSERT_OFFSET(LiteRtEnvOption, value, 8);
#undef TIO_ASSERT_SIZE
#undef TIO_ASSERT_OFFSET
#endif  // __LP64__

// Called by LiteRT when a tensor buffer over caller memory is destroyed.
typedef void (*LiteRtHostMemoryDeallocator)(void *addr);

// MARK: - Function table
//
// One member per libLiteRt.so function, named without the "LiteRt" prefix
// (LiteRtRunCompiledModel -> RunCompiledModel). Every member is non-NULL in a
// table returned by tio_litert_load.
//
// Ownership, as documented by LiteRT and observed:
//  - Strings, signatures and tensors returned from a model belong to the model
//    and die with DestroyModel.
//  - Options belong to the caller even after CreateCompiledModel; destroy them
//    afterwards. AddOpaqueOptions hands the opaque options to the options
//    (DestroyOptions frees them). CreateOpaqueOptions rejects a NULL payload
//    or destructor.
//  - Buffer requirements belong to the compiled model: never destroy them.
//  - A compiled model is not thread-safe; serialize runs on one instance.
typedef struct TIOLiteRtAPI {
  // Status
  // LiteRtGetStatusString is declared in litert_common.h but not exported by
  // libLiteRt.so 2.3.0. If the library lacks it, this points at a copy in
  // CLiteRT that returns the same "kLiteRtStatus..." names.
  const char *_Nonnull (*_Nonnull GetStatusString)(LiteRtStatus status);

  // Environment
  // `options` may be NULL when num_options is 0.
  LiteRtStatus (*CreateEnvironment)(int num_options, const LiteRtEnvOption *_Nullable options,
                                    LiteRtEnvironment _Nullable *_Nonnull environment);
  void (*DestroyEnvironment)(LiteRtEnvironment environment);
  LiteRtStatus (*GetNumAccelerators)(LiteRtEnvironment environment, LiteRtParamIndex *num_accelerators);
  LiteRtStatus (*GetAccelerator)(LiteRtEnvironment environment, LiteRtParamIndex index,
                                 LiteRtAccelerator _Nullable *_Nonnull accelerator);
  LiteRtStatus (*GetAcceleratorName)(LiteRtAccelerator accelerator, const char *_Nullable *_Nonnull name);
  LiteRtStatus (*GetAcceleratorHardwareSupport)(LiteRtAccelerator accelerator,
                                                LiteRtHwAcceleratorSet *supported_hardware);

  // Model
  LiteRtStatus (*CreateModelFromFile)(LiteRtEnvironment environment, const char *filename,
                                      LiteRtModel _Nullable *_Nonnull model);
  // The buffer is not copied: keep it alive (and unmoved) until DestroyModel.
  LiteRtStatus (*CreateModelFromBuffer)(LiteRtEnvironment environment, const void *buffer_addr,
                                        size_t buffer_size, LiteRtModel _Nullable *_Nonnull model);
  void (*DestroyModel)(LiteRtModel model);
  // NotFound if the model has no metadata entry `metadata_key`.
  LiteRtStatus (*GetModelMetadata)(LiteRtModel model, const char *metadata_key,
                                   const void *_Nullable *_Nonnull metadata_buffer,
                                   size_t *metadata_buffer_size);
  // Models converted without signatures still report one, "<placeholder
  // signature>", whose input/output names are the tensor names.
  LiteRtStatus (*GetNumModelSignatures)(LiteRtModel model, LiteRtParamIndex *num_signatures);
  LiteRtStatus (*GetModelSignature)(LiteRtModel model, LiteRtParamIndex signature_index,
                                    LiteRtSignature _Nullable *_Nonnull signature);

  // Signature. Inputs are listed in subgraph order, which need not match the
  // order tools such as Python's get_signature_list() show: bind by name.
  LiteRtStatus (*GetSignatureKey)(LiteRtSignature signature, const char *_Nullable *_Nonnull signature_key);
  LiteRtStatus (*GetNumSignatureInputs)(LiteRtSignature signature, LiteRtParamIndex *num_inputs);
  LiteRtStatus (*GetNumSignatureOutputs)(LiteRtSignature signature, LiteRtParamIndex *num_outputs);
  LiteRtStatus (*GetSignatureInputName)(LiteRtSignature signature, LiteRtParamIndex input_idx,
                                        const char *_Nullable *_Nonnull input_name);
  LiteRtStatus (*GetSignatureOutputName)(LiteRtSignature signature, LiteRtParamIndex output_idx,
                                         const char *_Nullable *_Nonnull output_name);
  LiteRtStatus (*GetSignatureInputTensor)(LiteRtSignature signature, const char *input_name,
                                          LiteRtTensor _Nullable *_Nonnull tensor);
  LiteRtStatus (*GetSignatureOutputTensor)(LiteRtSignature signature, const char *output_name,
                                           LiteRtTensor _Nullable *_Nonnull tensor);
  LiteRtStatus (*GetSignatureInputTensorByIndex)(LiteRtSignature signature, LiteRtParamIndex input_idx,
                                                 LiteRtTensor _Nullable *_Nonnull tensor);
  LiteRtStatus (*GetSignatureOutputTensorByIndex)(LiteRtSignature signature, LiteRtParamIndex output_idx,
                                                  LiteRtTensor _Nullable *_Nonnull tensor);

  // Tensor metadata (as stored in the model, before compilation).
  LiteRtStatus (*GetTensorName)(LiteRtTensor tensor, const char *_Nullable *_Nonnull name);
  LiteRtStatus (*GetTensorTypeId)(LiteRtTensor tensor, LiteRtTensorTypeId *type_id);
  LiteRtStatus (*GetRankedTensorType)(LiteRtTensor tensor, LiteRtRankedTensorType *ranked_tensor_type);
  LiteRtStatus (*GetUnrankedTensorType)(LiteRtTensor tensor, LiteRtUnrankedTensorType *unranked_tensor_type);
  LiteRtStatus (*GetQuantizationTypeId)(LiteRtTensor tensor, LiteRtQuantizationTypeId *q_type_id);
  LiteRtStatus (*GetPerTensorQuantization)(LiteRtTensor tensor,
                                           LiteRtQuantizationPerTensor *per_tensor_quantization);
  LiteRtStatus (*GetPerChannelQuantization)(LiteRtTensor tensor,
                                            LiteRtQuantizationPerChannel *per_channel_quantization);

  // Compilation options
  LiteRtStatus (*CreateOptions)(LiteRtOptions _Nullable *_Nonnull options);
  void (*DestroyOptions)(LiteRtOptions options);
  LiteRtStatus (*SetOptionsHardwareAccelerators)(LiteRtOptions options,
                                                 LiteRtHwAcceleratorSet hardware_accelerators);
  // Accelerator-specific settings as a TOML string payload, e.g. identifier
  // "xnnpack" (or "cpu_delegate") with strdup("num_threads = 2\n") and free.
  LiteRtStatus (*CreateOpaqueOptions)(const char *payload_identifier, void *payload_data,
                                      void (*payload_destructor)(void *payload_data),
                                      LiteRtOpaqueOptions _Nullable *_Nonnull options);
  // Only for opaque options never passed to AddOpaqueOptions.
  void (*DestroyOpaqueOptions)(LiteRtOpaqueOptions options);
  // Takes ownership of opaque_options.
  LiteRtStatus (*AddOpaqueOptions)(LiteRtOptions options, LiteRtOpaqueOptions opaque_options);
  // Optional (NULL when the library lacks it). Binds caller-owned memory
  // (64-byte aligned, outliving the compiled model) to a signature input
  // when the model is compiled; a run then passes NULL for that input's
  // buffer and LiteRT skips registering it. An empty signature_name means
  // the interpreter's default signature. The headers declare size_bytes as
  // int, the 2.3.0 sources as size_t: callers keep it within INT32_MAX so
  // that both read the same value. The binding's own result is not checked
  // by LiteRT (a name it cannot find is ignored), only its size later.
  LiteRtStatus (*_Nullable AddExternalTensorBinding)(LiteRtOptions options, const char *signature_name,
                                                     const char *tensor_name, void *data,
                                                     size_t size_bytes);

  // Compiled model
  // NULL options is accepted by the prototype but fails (InvalidArgument).
  LiteRtStatus (*CreateCompiledModel)(LiteRtEnvironment environment, LiteRtModel model,
                                      LiteRtOptions _Nullable compilation_options,
                                      LiteRtCompiledModel _Nullable *_Nonnull compiled_model);
  // Destroy before the model and the environment it was compiled from.
  void (*DestroyCompiledModel)(LiteRtCompiledModel compiled_model);
  LiteRtStatus (*GetCompiledModelInputBufferRequirements)(
      LiteRtCompiledModel compiled_model, LiteRtParamIndex signature_index, LiteRtParamIndex input_index,
      LiteRtTensorBufferRequirements _Nullable *_Nonnull buffer_requirements);
  LiteRtStatus (*GetCompiledModelOutputBufferRequirements)(
      LiteRtCompiledModel compiled_model, LiteRtParamIndex signature_index, LiteRtParamIndex output_index,
      LiteRtTensorBufferRequirements _Nullable *_Nonnull buffer_requirements);
  // The shape the interpreter will actually use (dynamic dimensions resolved,
  // including after a resize). Prefer these over the model's tensor types.
  LiteRtStatus (*GetCompiledModelInputTensorLayout)(LiteRtCompiledModel compiled_model,
                                                    LiteRtParamIndex signature_index,
                                                    LiteRtParamIndex input_index, LiteRtLayout *layout);
  // Fills layouts[0..<num_layouts] (num_layouts = the signature's output
  // count). update_allocation = true re-plans tensors after a resize.
  LiteRtStatus (*GetCompiledModelOutputTensorLayouts)(LiteRtCompiledModel compiled_model,
                                                      LiteRtParamIndex signature_index, size_t num_layouts,
                                                      LiteRtLayout *layouts, bool update_allocation);
  LiteRtStatus (*CompiledModelIsFullyAccelerated)(LiteRtCompiledModel compiled_model,
                                                  bool *fully_accelerated);
  // Resizes an input whose model dimensions are dynamic (-1). The NonStrict
  // variant also accepts fixed dimensions. Re-query layouts afterwards.
  LiteRtStatus (*CompiledModelResizeInputTensor)(LiteRtCompiledModel compiled_model,
                                                 LiteRtParamIndex signature_index,
                                                 LiteRtParamIndex input_index, const int *dims,
                                                 size_t dims_size);
  LiteRtStatus (*CompiledModelResizeInputTensorNonStrict)(LiteRtCompiledModel compiled_model,
                                                          LiteRtParamIndex signature_index,
                                                          LiteRtParamIndex input_index, const int *dims,
                                                          size_t dims_size);
  // Optional (NULL when the library lacks it). The interpreter calls
  // check_cancelled_func(data) before each operator of a run and stops the
  // run (RuntimeFailure) when it returns true. It cannot be unset (NULL is
  // InvalidArgument), so data must outlive the compiled model. TensorIO uses
  // it to tell a run that failed while LiteRT registered its buffers (the
  // function is never called) from one that reached the first operator.
  LiteRtStatus (*_Nullable SetCompiledModelCancellationFunction)(
      LiteRtCompiledModel compiled_model, void *_Nullable data,
      bool (*check_cancelled_func)(void *_Nullable data));
  // Buffers are given in the signature's input/output order.
  LiteRtStatus (*RunCompiledModel)(LiteRtCompiledModel compiled_model, LiteRtParamIndex signature_index,
                                   size_t num_input_buffers,
                                   LiteRtTensorBuffer _Nonnull *_Nullable input_buffers,
                                   size_t num_output_buffers,
                                   LiteRtTensorBuffer _Nonnull *_Nullable output_buffers);

  // Buffer requirements (owned by the compiled model)
  LiteRtStatus (*GetTensorBufferRequirementsBufferSize)(LiteRtTensorBufferRequirements requirements,
                                                        size_t *buffer_size);
  LiteRtStatus (*GetNumTensorBufferRequirementsSupportedBufferTypes)(
      LiteRtTensorBufferRequirements requirements, int *num_types);
  LiteRtStatus (*GetTensorBufferRequirementsSupportedTensorBufferType)(
      LiteRtTensorBufferRequirements requirements, int type_index, LiteRtTensorBufferType *type);
  LiteRtStatus (*GetTensorBufferRequirementsAlignment)(LiteRtTensorBufferRequirements requirements,
                                                       size_t *alignment);
  // num_strides is 0 and strides NULL when the buffer is packed.
  LiteRtStatus (*GetTensorBufferRequirementsStrides)(LiteRtTensorBufferRequirements requirements,
                                                     int *num_strides,
                                                     const uint32_t *_Nullable *_Nonnull strides);

  // Tensor buffers
  // Wraps caller memory without copying. host_buffer_addr must be aligned to
  // LITERT_HOST_MEMORY_BUFFER_ALIGNMENT. A NULL deallocator leaves the memory
  // to the caller (free it only after DestroyTensorBuffer).
  LiteRtStatus (*CreateTensorBufferFromHostMemory)(const LiteRtRankedTensorType *tensor_type,
                                                   void *host_buffer_addr, size_t host_buffer_size,
                                                   LiteRtHostMemoryDeallocator _Nullable deallocator,
                                                   LiteRtTensorBuffer _Nullable *_Nonnull buffer);
  // Fails ("Failed to get num packed bytes") if tensor_type has a dynamic
  // dimension: use the compiled model's layout, not the model's tensor type.
  LiteRtStatus (*CreateManagedTensorBufferFromRequirements)(LiteRtEnvironment env,
                                                            const LiteRtRankedTensorType *tensor_type,
                                                            LiteRtTensorBufferRequirements requirements,
                                                            LiteRtTensorBuffer _Nullable *_Nonnull buffer);
  LiteRtStatus (*CreateManagedTensorBuffer)(LiteRtEnvironment env, LiteRtTensorBufferType buffer_type,
                                            const LiteRtRankedTensorType *tensor_type, size_t buffer_size,
                                            LiteRtTensorBuffer _Nullable *_Nonnull buffer);
  // Fails unless the buffer lives in host memory; no locking or copy.
  LiteRtStatus (*GetTensorBufferHostMemory)(LiteRtTensorBuffer tensor_buffer,
                                            void *_Nullable *_Nonnull host_memory_addr);
  LiteRtStatus (*GetTensorBufferType)(LiteRtTensorBuffer tensor_buffer, LiteRtTensorBufferType *buffer_type);
  LiteRtStatus (*GetTensorBufferTensorType)(LiteRtTensorBuffer tensor_buffer,
                                            LiteRtRankedTensorType *tensor_type);
  // Size of the underlying allocation (may include stride padding).
  LiteRtStatus (*GetTensorBufferSize)(LiteRtTensorBuffer tensor_buffer, size_t *size);
  // Bytes of tensor data as seen through LockTensorBuffer.
  LiteRtStatus (*GetTensorBufferPackedSize)(LiteRtTensorBuffer tensor_buffer, size_t *size);
  LiteRtStatus (*LockTensorBuffer)(LiteRtTensorBuffer tensor_buffer, void *_Nullable *_Nonnull host_mem_addr,
                                   LiteRtTensorBufferLockMode lock_mode);
  LiteRtStatus (*UnlockTensorBuffer)(LiteRtTensorBuffer buffer);
  void (*DestroyTensorBuffer)(LiteRtTensorBuffer buffer);
} TIOLiteRtAPI;

// MARK: - Loader

// Opens the LiteRT runtime at `path` (dlopen with RTLD_NOW | RTLD_LOCAL) and
// resolves every member of TIOLiteRtAPI, with CRuntimeLoader's tio_runtime_load.
//
// On success returns a heap-allocated table that is never freed, and the
// library is never closed: LiteRT objects and the functions in the table stay
// valid for the life of the process.
//
// On failure returns NULL, closes the library again and writes a one-line,
// NUL-terminated message into `error` (truncated to error_size bytes):
//   "cannot open <path>: <reason from dlerror>"
//   "<path> does not export LiteRtXxx"
//
// Not thread-safe (dlerror() is shared state): the caller serializes calls and
// caches the result; the Swift side loads once, under a lock. Each successful
// call allocates a new table, so call it once per path.
const TIOLiteRtAPI *_Nullable tio_litert_load(const char *path, char *error, size_t error_size);

#pragma clang assume_nonnull end

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // TENSORIO_CLITERT_H
