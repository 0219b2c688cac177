// RE2 and SentencePiece behind the C functions of CTextTokenizers.h.
#include "CTextTokenizers.h"

#include <re2/re2.h>
#include <sentencepiece_processor.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {
void copy_error(const std::string &message, char *error, size_t error_size) {
    if (error_size == 0) return;
    size_t count = message.size() < error_size - 1 ? message.size() : error_size - 1;
    std::memcpy(error, message.data(), count);
    error[count] = '\0';
}

// What `body` returns; `failed` when it throws, with the exception's message (or `unknown_failure`, for
// an exception that is not a std::exception) copied to `error`.
template <typename Result, typename Body>
Result reporting_exceptions(Result failed, const char *unknown_failure, char *error, size_t error_size, Body body) {
    try {
        return body();
    } catch (const std::exception &exception) {
        copy_error(exception.what(), error, error_size);
    } catch (...) {
        copy_error(unknown_failure, error, error_size);
    }
    return failed;
}
}  // namespace

struct tio_regex {
    std::unique_ptr<re2::RE2> re;
};

struct tio_sentencepiece {
    sentencepiece::SentencePieceProcessor processor;
};

extern "C" tio_regex *tio_regex_create(const char *pattern, size_t length, int64_t max_memory, char *error,
                                       size_t error_size) {
    return reporting_exceptions<tio_regex *>(nullptr, "RE2 failed", error, error_size, [&]() -> tio_regex * {
        re2::RE2::Options options;
        options.set_log_errors(false);
        options.set_max_mem(max_memory);
        auto re = std::make_unique<re2::RE2>(re2::StringPiece(pattern, length), options);
        if (!re->ok()) {
            copy_error(re->error(), error, error_size);
            return nullptr;
        }
        return new tio_regex{std::move(re)};
    });
}

extern "C" void tio_regex_destroy(tio_regex *regex) { delete regex; }

extern "C" int tio_regex_find(const tio_regex *regex, const char *text, size_t length, size_t offset,
                              size_t *match_start, size_t *match_end) {
    if (offset > length) return 0;
    try {
        re2::StringPiece input(text, length);
        re2::StringPiece match;
        if (!regex->re->Match(input, offset, length, re2::RE2::UNANCHORED, &match, 1)) return 0;
        *match_start = static_cast<size_t>(match.data() - text);
        *match_end = *match_start + match.size();
        return 1;
    } catch (...) {
        return -1;
    }
}

extern "C" int tio_regex_full_match(const tio_regex *regex, const char *text, size_t start, size_t end) {
    if (start > end) return 0;
    try {
        return re2::RE2::FullMatch(re2::StringPiece(text + start, end - start), *regex->re) ? 1 : 0;
    } catch (...) {
        return -1;
    }
}

extern "C" tio_sentencepiece *tio_sentencepiece_create(const void *model, size_t size, char *error, size_t error_size) {
    return reporting_exceptions<tio_sentencepiece *>(
        nullptr, "SentencePiece failed", error, error_size, [&]() -> tio_sentencepiece * {
        auto result = std::make_unique<tio_sentencepiece>();
        auto status = result->processor.LoadFromSerializedProto(
            std::string_view(static_cast<const char *>(model), size));
        if (!status.ok()) {
            copy_error(status.ToString(), error, error_size);
            return nullptr;
        }
        return result.release();
    });
}

extern "C" void tio_sentencepiece_destroy(tio_sentencepiece *processor) { delete processor; }

extern "C" int64_t tio_sentencepiece_encode(const tio_sentencepiece *processor, const char *text, size_t length,
                                            int32_t *ids, size_t capacity, char *error, size_t error_size) {
    return reporting_exceptions<int64_t>(-1, "SentencePiece failed", error, error_size, [&]() -> int64_t {
        std::vector<std::string> pieces;
        auto status = processor->processor.Encode(std::string_view(text, length), &pieces);
        if (!status.ok()) {
            copy_error(status.ToString(), error, error_size);
            return -1;
        }
        for (size_t index = 0; index < pieces.size() && index < capacity; index++) {
            ids[index] = processor->processor.PieceToId(pieces[index]);
        }
        return static_cast<int64_t>(pieces.size());
    });
}

extern "C" int32_t tio_sentencepiece_piece_id(const tio_sentencepiece *processor, const char *piece, size_t length) {
    try {
        return processor->processor.PieceToId(std::string_view(piece, length));
    } catch (...) {
        return processor->processor.unk_id();
    }
}

extern "C" int32_t tio_sentencepiece_size(const tio_sentencepiece *processor) {
    return processor->processor.GetPieceSize();
}
