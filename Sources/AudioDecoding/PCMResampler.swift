import CFFmpeg

/// Converts a decoder's float PCM to a `PCMTarget`'s rate, channel count and encoding with libswresample at
/// its defaults, so the output is what `ffmpeg -ar RATE -ac CHANNELS -f s16le` (or `f32le`) gives for the same
/// decoded samples, whatever the codec.
///
/// Samples whose codec gave 16-bit integers are resampled as 16-bit integers when 16-bit output is wanted, as
/// libswresample does for ffmpeg (they convert to and from floats exactly). When the input's format changes (a
/// chained stream's new rate), what the filter holds of the old input is output first.
public final class PCMResampler {
    public let target: PCMTarget
    private var context: OpaquePointer?
    /// The input format the context was made for.
    private var input: PCMFormat?
    /// The converted samples, reused from one call to the next.
    private var storage: [UInt8] = []

    public init(target: PCMTarget) {
        self.target = target
    }

    deinit {
        swr_free(&context)
    }

    /// Converts `pcm` (float samples) and gives `body` what comes out, if anything yet: the filter holds back a
    /// few frames, which come with later input or `finish`.
    /// - Throws: `DecodeError` when libswresample cannot convert from the input's format.
    public func convert(_ pcm: PCMBuffer, body: (PCMBuffer) -> Void) throws {
        precondition(pcm.format.sampleFormat == .float32, "the resampler takes float samples")
        if pcm.format != input {
            finish(body: body)
            try open(for: pcm.format)
        }
        guard let base = pcm.bytes.baseAddress else { return }
        var planes: [UnsafePointer<UInt8>?] = [base.assumingMemoryBound(to: UInt8.self)]
        run(inputFrames: pcm.frames, planes: &planes, body: body)
    }

    /// Outputs what the filter still holds: at the end of the stream.
    public func finish(body: (PCMBuffer) -> Void) {
        guard context != nil else { return }
        var planes: [UnsafePointer<UInt8>?] = []
        run(inputFrames: 0, planes: &planes, body: body)
        swr_free(&context)
        input = nil
    }

    private func open(for format: PCMFormat) throws {
        let output = target.output(for: format)
        var inputLayout = AVChannelLayout()
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&inputLayout, Int32(format.channels))
        av_channel_layout_default(&outputLayout, Int32(output.channels))
        let outputSampleFormat = output.sampleFormat == .int16 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_FLT
        var status = swr_alloc_set_opts2(
            &context, &outputLayout, outputSampleFormat, Int32(output.sampleRate),
            &inputLayout, AV_SAMPLE_FMT_FLT, Int32(format.sampleRate), 0, nil)
        if status >= 0, format.codecSamples == .shortInteger, output.sampleFormat == .int16 {
            status = av_opt_set_sample_fmt(UnsafeMutableRawPointer(context), "internal_sample_fmt", AV_SAMPLE_FMT_S16P, 0)
        }
        if status >= 0 { status = swr_init(context) }
        guard status >= 0 else {
            swr_free(&context)
            throw DecodeError("libswresample cannot convert \(format) to \(output) (error \(status))")
        }
        input = format
    }

    /// Feeds `inputFrames` frames (none: drains the filter) and gives `body` the output.
    private func run(inputFrames: Int, planes: inout [UnsafePointer<UInt8>?], body: (PCMBuffer) -> Void) {
        guard let context, let input else { return }
        let format = target.output(for: input)
        var fed = inputFrames
        repeat {
            let capacity = Int(swr_get_out_samples(context, Int32(fed))) + 16
            let byteCount = capacity * format.bytesPerFrame
            if storage.count < byteCount { storage += repeatElement(0, count: byteCount - storage.count) }
            let produced = storage.withUnsafeMutableBytes { raw -> Int in
                var output: [UnsafeMutablePointer<UInt8>?] = [raw.baseAddress!.assumingMemoryBound(to: UInt8.self)]
                let count = planes.withUnsafeMutableBufferPointer { inputPlanes in
                    swr_convert(context, &output, Int32(capacity), fed > 0 ? inputPlanes.baseAddress : nil, Int32(fed))
                }
                guard count > 0 else { return 0 }
                body(PCMBuffer(bytes: UnsafeRawBufferPointer(rebasing: raw[..<(Int(count) * format.bytesPerFrame)]),
                               format: format))
                return Int(count)
            }
            fed = 0
            // Draining takes as many calls as the filter has frames to give; input goes in with one.
            if inputFrames > 0 || produced == 0 { break }
        } while true
    }
}
