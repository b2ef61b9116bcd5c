import AudioFileStream
import CFFmpeg

/// libavcodec's log goes to standard error; its decode errors reach our handler as events instead.
private let quietLibrary: Void = av_log_set_level(AV_LOG_QUIET)

/// One libavcodec decoder, opened for a codec with its extradata and freed when the value goes away. It is fed
/// one whole packet at a time, as our parser cut it: no FFmpeg demuxer or parser is involved.
final class CodecContext {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?

    /// Opens `decoder` with the stream's rate and channel count (as ffmpeg's demuxers give them to the
    /// decoder) and `extradata`.
    /// - Throws: `DecodeError` when the decoder refuses the configuration.
    init(decoder: UnsafePointer<AVCodec>, format: AudioStreamBasicDescription, extradata: [UInt8]) throws {
        context = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let context, packet != nil, frame != nil else { throw DecodeError("out of memory") }
        _ = quietLibrary
        // Trimming is PacketTableInfo's alone: libavcodec would drop a codec's stated delay (Opus pre-skip) too.
        context.pointee.flags2 |= AV_CODEC_FLAG2_SKIP_MANUAL
        context.pointee.sample_rate = Int32(format.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(format.channelsPerFrame))
        // Constant-size packets (IMA4) say their size, which block-based decoders read.
        context.pointee.block_align = Int32(format.bytesPerPacket)
        if !extradata.isEmpty {
            // libavcodec reads extradata with its optimised bit readers, which need zeroed padding past the end.
            guard let copy = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                throw DecodeError("out of memory")
            }
            copy.copyMemory(from: extradata, byteCount: extradata.count)
            context.pointee.extradata = copy.assumingMemoryBound(to: UInt8.self)
            context.pointee.extradata_size = Int32(extradata.count)
        }
        let status = avcodec_open2(context, decoder, nil)
        guard status >= 0 else { throw Self.error(status, "cannot open the \(format.codecName) decoder") }
    }

    deinit {
        avcodec_free_context(&context)
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// Hands one whole packet to the decoder.
    /// - Throws: `DecodeError` when the decoder rejects it; the packet is then dropped.
    func send(_ bytes: UnsafeRawBufferPointer) throws {
        guard let packet, let base = bytes.baseAddress else { return }
        // The packet does not own the bytes, so libavcodec copies them into a padded buffer of its own.
        packet.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        packet.pointee.size = Int32(bytes.count)
        let status = avcodec_send_packet(context, packet)
        packet.pointee.data = nil
        packet.pointee.size = 0
        guard status >= 0 else { throw Self.error(status, "packet rejected") }
    }

    /// Gives `body` each frame decoded from the packets sent so far. After `drain()`, every frame the decoder
    /// held, and the decoder is then ready for new packets.
    /// - Throws: `DecodeError` when decoding fails; the frames before it were given.
    func receiveFrames(_ body: (UnsafePointer<AVFrame>) -> Void) throws {
        guard let frame else { return }
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == endOfStream {
                avcodec_flush_buffers(context)
                return
            }
            if status == -EAGAIN { return }
            guard status >= 0 else { throw Self.error(status, "decoding failed") }
            body(frame)
            av_frame_unref(frame)
        }
    }

    /// Tells the decoder no more packets follow, so `receiveFrames` gives what it holds back.
    func drain() {
        _ = avcodec_send_packet(context, nil)
    }

    private static func error(_ status: Int32, _ what: String) -> DecodeError {
        var text = [CChar](repeating: 0, count: 128)
        av_strerror(status, &text, text.count)
        return DecodeError("\(what): \(text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })")
    }
}

/// libavutil's AVERROR_EOF, a macro Swift does not import: the negated tag 'EOF '.
private let endOfStream: Int32 = -Int32(bitPattern: 0x2046_4F45)
