// Defines the FFmpeg functions AudioDecoding calls as trampolines into libavcodec, libavutil and libswresample
// (which libavcodec itself needs), loaded with
// dlopen on first use: the libraries of the headers this was built with (their major versions), so the ABI is the
// one compiled against. When they cannot be loaded, avcodec_find_decoder finds no decoder, which callers already
// report as an unsupported format, and nothing else is ever called.
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include "CFFmpeg.h"

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

static struct {
    void (*log_set_level)(int);
    const AVCodec *(*find_decoder)(enum AVCodecID);
    AVCodecContext *(*alloc_context3)(const AVCodec *);
    int (*open2)(AVCodecContext *, const AVCodec *, AVDictionary **);
    void (*free_context)(AVCodecContext **);
    void (*flush_buffers)(AVCodecContext *);
    int (*send_packet)(AVCodecContext *, const AVPacket *);
    int (*receive_frame)(AVCodecContext *, AVFrame *);
    AVPacket *(*packet_alloc)(void);
    void (*packet_free)(AVPacket **);
    AVFrame *(*frame_alloc)(void);
    void (*frame_free)(AVFrame **);
    void (*frame_unref)(AVFrame *);
    void *(*mallocz)(size_t);
    int (*strerror)(int, char *, size_t);
    void (*channel_layout_default)(AVChannelLayout *, int);
    enum AVSampleFormat (*get_packed_sample_fmt)(enum AVSampleFormat);
    int (*sample_fmt_is_planar)(enum AVSampleFormat);
    int (*opt_set_sample_fmt)(void *, const char *, enum AVSampleFormat, int);
    int (*swr_alloc_set_opts2)(SwrContext **, AVChannelLayout *, enum AVSampleFormat, int,
                               AVChannelLayout *, enum AVSampleFormat, int, int, void *);
    int (*swr_init)(SwrContext *);
    void (*swr_free)(SwrContext **);
    int (*swr_convert)(SwrContext *, uint8_t **, int, const uint8_t **, int);
    int (*swr_get_out_samples)(SwrContext *, int);
    int loaded;
} ff;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *avutil = dlopen("libavutil.so." STRINGIFY(LIBAVUTIL_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    void *avcodec = dlopen("libavcodec.so." STRINGIFY(LIBAVCODEC_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    void *swresample = dlopen("libswresample.so." STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    if (!avutil || !avcodec || !swresample) return;
#define BIND(field, library, name) if (!(*(void **)&ff.field = dlsym(library, #name))) return
    BIND(log_set_level, avutil, av_log_set_level);
    BIND(find_decoder, avcodec, avcodec_find_decoder);
    BIND(alloc_context3, avcodec, avcodec_alloc_context3);
    BIND(open2, avcodec, avcodec_open2);
    BIND(free_context, avcodec, avcodec_free_context);
    BIND(flush_buffers, avcodec, avcodec_flush_buffers);
    BIND(send_packet, avcodec, avcodec_send_packet);
    BIND(receive_frame, avcodec, avcodec_receive_frame);
    BIND(packet_alloc, avcodec, av_packet_alloc);
    BIND(packet_free, avcodec, av_packet_free);
    BIND(frame_alloc, avutil, av_frame_alloc);
    BIND(frame_free, avutil, av_frame_free);
    BIND(frame_unref, avutil, av_frame_unref);
    BIND(mallocz, avutil, av_mallocz);
    BIND(strerror, avutil, av_strerror);
    BIND(channel_layout_default, avutil, av_channel_layout_default);
    BIND(get_packed_sample_fmt, avutil, av_get_packed_sample_fmt);
    BIND(sample_fmt_is_planar, avutil, av_sample_fmt_is_planar);
    BIND(opt_set_sample_fmt, avutil, av_opt_set_sample_fmt);
    BIND(swr_alloc_set_opts2, swresample, swr_alloc_set_opts2);
    BIND(swr_init, swresample, swr_init);
    BIND(swr_free, swresample, swr_free);
    BIND(swr_convert, swresample, swr_convert);
    BIND(swr_get_out_samples, swresample, swr_get_out_samples);
#undef BIND
    ff.loaded = 1;
}

static int loaded(void) {
    pthread_once(&once, load);
    return ff.loaded;
}

void av_log_set_level(int level) { if (loaded()) ff.log_set_level(level); }
const AVCodec *avcodec_find_decoder(enum AVCodecID id) { return loaded() ? ff.find_decoder(id) : NULL; }
// A resampler's first calls load the libraries (its layouts stay empty and it is refused when they cannot be).
void av_channel_layout_default(AVChannelLayout *layout, int channels) {
    if (loaded()) ff.channel_layout_default(layout, channels);
}
int swr_alloc_set_opts2(SwrContext **context, AVChannelLayout *out_layout, enum AVSampleFormat out_format,
                        int out_rate, AVChannelLayout *in_layout, enum AVSampleFormat in_format, int in_rate,
                        int log_offset, void *log_context) {
    if (!loaded()) return AVERROR(ENOSYS);
    return ff.swr_alloc_set_opts2(context, out_layout, out_format, out_rate, in_layout, in_format, in_rate,
                                  log_offset, log_context);
}
// Everything below is reached only through a decoder or a resampler made above, so the libraries are loaded.
AVCodecContext *avcodec_alloc_context3(const AVCodec *codec) { return ff.alloc_context3(codec); }
int avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) {
    return ff.open2(context, codec, options);
}
void avcodec_free_context(AVCodecContext **context) { ff.free_context(context); }
void avcodec_flush_buffers(AVCodecContext *context) { ff.flush_buffers(context); }
int avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) { return ff.send_packet(context, packet); }
int avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) { return ff.receive_frame(context, frame); }
AVPacket *av_packet_alloc(void) { return ff.packet_alloc(); }
void av_packet_free(AVPacket **packet) { ff.packet_free(packet); }
AVFrame *av_frame_alloc(void) { return ff.frame_alloc(); }
void av_frame_free(AVFrame **frame) { ff.frame_free(frame); }
void av_frame_unref(AVFrame *frame) { ff.frame_unref(frame); }
void *av_mallocz(size_t size) { return ff.mallocz(size); }
int av_strerror(int error, char *buffer, size_t size) { return ff.strerror(error, buffer, size); }
enum AVSampleFormat av_get_packed_sample_fmt(enum AVSampleFormat format) { return ff.get_packed_sample_fmt(format); }
int av_sample_fmt_is_planar(enum AVSampleFormat format) { return ff.sample_fmt_is_planar(format); }
int av_opt_set_sample_fmt(void *object, const char *name, enum AVSampleFormat format, int flags) {
    return ff.opt_set_sample_fmt(object, name, format, flags);
}
int swr_init(SwrContext *context) { return ff.swr_init(context); }
void swr_free(SwrContext **context) { ff.swr_free(context); }
int swr_convert(SwrContext *context, uint8_t **out, int out_count, const uint8_t **in, int in_count) {
    return ff.swr_convert(context, out, out_count, in, in_count);
}
int swr_get_out_samples(SwrContext *context, int in_samples) { return ff.swr_get_out_samples(context, in_samples); }
