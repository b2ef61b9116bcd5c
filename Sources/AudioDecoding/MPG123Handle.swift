import CMPG123

/// libmpg123's initialisation, required once per process before any handle (a no-op in recent versions).
private let libraryInitialisation: Int32 = mpg123_init()

/// One libmpg123 decoder in feed mode, freed when the value goes away. It is fed whole frames only, so it
/// reads no further ahead than the frame it decodes and does no gapless trimming of its own.
final class MPG123Handle {
    private let handle: OpaquePointer
    private let encoding: Int32

    /// A decoder producing `sampleFormat` at the stream's own rate and channel count.
    init(sampleFormat: PCMSampleFormat) throws {
        _ = libraryInitialisation
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw DecodeError("cannot create a decoder: \(String(cString: mpg123_plain_strerror(error)))")
        }
        self.handle = handle
        encoding = switch sampleFormat {
        case .int16: Int32(MPG123_ENC_SIGNED_16.rawValue)
        case .float32: Int32(MPG123_ENC_FLOAT_32.rawValue)
        }
        let added = Int(MPG123_QUIET.rawValue | MPG123_NO_READAHEAD.rawValue)
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), added, 0)
        mpg123_param2(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), Int(MPG123_GAPLESS.rawValue), 0)
        mpg123_format_none(handle)
        var rates: UnsafePointer<Int>?
        var rateCount = 0
        mpg123_rates(&rates, &rateCount)
        for rate in UnsafeBufferPointer(start: rates, count: rateCount) {
            mpg123_format(handle, rate, Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), encoding)
        }
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    /// Starts a new stream: all decoder state is dropped. A free-format stream needs its frame size (without
    /// padding), since the decoder does not read ahead to measure it.
    func open(freeFormatFrameSize: Int?) {
        mpg123_close(handle)
        mpg123_param2(handle, Int32(MPG123_FREEFORMAT_SIZE.rawValue), freeFormatFrameSize ?? -1, 0)
        mpg123_open_feed(handle)
    }

    /// Hands whole frames to the decoder.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        let status = mpg123_feed(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
        guard status == MPG123_OK.rawValue else { throw lastError }
    }

    /// The outcome of decoding the next frame.
    enum Step {
        case pcm(UnsafeRawBufferPointer)
        case newFormat(sampleRate: Int, channels: Int)
        case needMore
        case failed(DecodeError)
    }

    /// Decodes the next fed frame; the PCM lives in the decoder's buffer until the next call.
    func decodeFrame() -> Step {
        var frameNumber = 0
        var audio: UnsafeMutablePointer<UInt8>?
        var count = 0
        let status = mpg123_decode_frame(handle, &frameNumber, &audio, &count)
        switch status {
        case MPG123_OK.rawValue:
            return .pcm(UnsafeRawBufferPointer(start: audio, count: count))
        case MPG123_NEW_FORMAT.rawValue:
            var rate = 0
            var channels: Int32 = 0
            var encoding: Int32 = 0
            mpg123_getformat(handle, &rate, &channels, &encoding)
            return .newFormat(sampleRate: rate, channels: Int(channels))
        case MPG123_NEED_MORE.rawValue, MPG123_DONE.rawValue:
            return .needMore
        default:
            return .failed(lastError)
        }
    }

    private var lastError: DecodeError {
        DecodeError(String(cString: mpg123_strerror(handle)))
    }
}
