// A C face for the two C++ libraries TensorIOText tokenizes with: RE2 (linear-time regular expressions, the
// syntax of the TFLite regex and BERT tokenizers) and SentencePiece. Every function catches what the
// libraries throw and reports failure in its return value; none keeps a pointer to what it is given.
#ifndef TENSORIO_CTEXTTOKENIZERS_H
#define TENSORIO_CTEXTTOKENIZERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled RE2 pattern.
typedef struct tio_regex tio_regex;

/// Compiles `pattern` (`length` bytes of UTF-8) with at most `max_memory` bytes for the compiled program;
/// NULL on failure, with RE2's message in `error` (NUL-terminated, truncated to `error_size`).
tio_regex *_Nullable tio_regex_create(const char *_Nonnull pattern, size_t length, int64_t max_memory,
                                      char *_Nonnull error, size_t error_size);
void tio_regex_destroy(tio_regex *_Nullable regex);

/// The first match of `regex` in `text[offset, length)` (unanchored): 1 with its bounds in
/// `match_start`/`match_end` (byte offsets in `text`), 0 when there is none, -1 on failure.
int tio_regex_find(const tio_regex *_Nonnull regex, const char *_Nonnull text, size_t length, size_t offset,
                   size_t *_Nonnull match_start, size_t *_Nonnull match_end);

/// Whether `regex` matches all of `text[start, end)`: 1 or 0, -1 on failure.
int tio_regex_full_match(const tio_regex *_Nonnull regex, const char *_Nonnull text, size_t start, size_t end);

/// A loaded SentencePiece model.
typedef struct tio_sentencepiece tio_sentencepiece;

/// Loads a serialized `ModelProto` of `size` bytes; NULL on failure, with the library's message in `error`.
tio_sentencepiece *_Nullable tio_sentencepiece_create(const void *_Nonnull model, size_t size, char *_Nonnull error,
                                                      size_t error_size);
void tio_sentencepiece_destroy(tio_sentencepiece *_Nullable processor);

/// Encodes `text` into pieces and each piece into its id (MediaPipe's order: `Encode` to pieces, then
/// `PieceToId`), writing at most `capacity` ids: the number of pieces (which may exceed `capacity`), or -1
/// on failure with the message in `error`.
int64_t tio_sentencepiece_encode(const tio_sentencepiece *_Nonnull processor, const char *_Nonnull text, size_t length,
                                 int32_t *_Nonnull ids, size_t capacity, char *_Nonnull error, size_t error_size);

/// The id of the piece `piece` (`length` bytes): the model's unknown id when it has no such piece.
int32_t tio_sentencepiece_piece_id(const tio_sentencepiece *_Nonnull processor, const char *_Nonnull piece, size_t length);

/// The number of pieces in the model.
int32_t tio_sentencepiece_size(const tio_sentencepiece *_Nonnull processor);

#ifdef __cplusplus
}
#endif

#endif
