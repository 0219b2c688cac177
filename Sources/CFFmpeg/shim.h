// FFmpeg's demuxers and MP4 muxer (libavformat), decoders and encoders (libavcodec), pixel conversion
// (libswscale) and utilities (libavutil), for TensorIOVideo alone. Debian 12 ships FFmpeg 5.1.
//
// The inline functions below give Swift what FFmpeg only offers as macros (error codes built from tags, the
// "no timestamp" value) or through C arrays Swift sees as tuples (a frame's planes for sws_scale).
#include <errno.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/// AVERROR(code): an errno value as FFmpeg returns it.
static inline int tio_averror(int code) { return AVERROR(code); }
/// AVERROR_EOF: the end of a stream.
static inline int tio_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR_EXIT: a blocking call given up at the caller's request (a live stream stopped).
static inline int tio_averror_exit(void) { return AVERROR_EXIT; }
/// AVERROR_INVALIDDATA: damaged input.
static inline int tio_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_STREAM_NOT_FOUND: av_find_best_stream found no stream of the kind asked for.
static inline int tio_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/// AVERROR_DECODER_NOT_FOUND: av_find_best_stream found streams, but no decoder for them.
static inline int tio_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t tio_nopts_value(void) { return AV_NOPTS_VALUE; }

/// Converts `frame` whole with `context` into one packed plane at `destination`, `stride` bytes a row.
static inline int tio_scale_frame(struct SwsContext *context, const AVFrame *frame, uint8_t *destination, int stride) {
    uint8_t *planes[4] = { destination, NULL, NULL, NULL };
    int strides[4] = { stride, 0, 0, 0 };
    return sws_scale(context, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
}

/// Converts `height` rows of one packed plane at `source`, `stride` bytes a row, with `context` into
/// `frame`'s planes (the encoder's side: BGRA in, YUV 4:2:0 out).
static inline int tio_scale_into_frame(struct SwsContext *context, const uint8_t *source, int stride, int height, AVFrame *frame) {
    const uint8_t *planes[4] = { source, NULL, NULL, NULL };
    int strides[4] = { stride, 0, 0, 0 };
    return sws_scale(context, planes, strides, 0, height, frame->data, frame->linesize);
}

/// Names the calling thread (15 characters at most on Linux): the decoding thread, whose name the threads
/// libavcodec starts from it inherit. prctl is variadic, which Swift cannot call.
static inline void tio_name_current_thread(const char *name) {
#ifdef __linux__
    prctl(PR_SET_NAME, name, 0, 0, 0);
#else
    (void)name;
#endif
}
