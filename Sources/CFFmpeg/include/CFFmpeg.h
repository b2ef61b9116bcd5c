// FFmpeg's decoding and resampling API as AudioDecoding uses it. The functions are defined in ffmpeg_loader.c, which loads
// libavcodec and libavutil with dlopen on first use, so programs that never decode do not pay for loading them
// (and the hundred libraries they bring) at start-up.
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
