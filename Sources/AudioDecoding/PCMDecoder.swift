import AudioFileStream

/// Converts the samples of PCM containers (WAVE, AIFF, CAF) to interleaved PCM, as a `PacketDecoder`: linear
/// PCM (`lpcm`) of 8 to 32-bit integers in either byte order, signed or unsigned, and 32 or 64-bit floats, and
/// G.711 µ-law and A-law; anything else is reported as unsupported.
///
/// Packets come as constant-size frames without descriptions. Integers scale as libswresample scales them, so
/// the output is `ffmpeg -f s16le`'s (or `f32le`'s) of the same file; PacketTableInfo trims as for any codec.
public final class PCMDecoder: PacketDecoder {
    public let sampleFormat: PCMSampleFormat
    private var output: PCMOutput
    private var converter: SampleConverter
    /// How the stored samples read, or nil before a DataFormat this decoder reads.
    private var layout: StoredSampleLayout?

    public init(sampleFormat: PCMSampleFormat = .float32, handler: @escaping (DecoderEvent) -> Void) {
        self.sampleFormat = sampleFormat
        output = PCMOutput(handler: handler)
        converter = SampleConverter(sampleFormat: sampleFormat)
    }

    /// Whether packets of `formatID` are samples this decoder converts.
    public static func decodes(_ formatID: FourCharCode) -> Bool {
        [AudioFormatID.linearPCM, AudioFormatID.uLaw, AudioFormatID.aLaw].contains(formatID)
    }

    public func consume(_ event: AudioFileStreamEvent) {
        switch event {
        case .property(.dataFormat, .format(let format)):
            output.trimmer.formatChanged()
            layout = StoredSampleLayout(format)
            if layout == nil { output.report(.unsupportedFormat(format.formatID)) }
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            output.trimmer.note(table)
        case .packets(let batch):
            convert(batch)
        case .discontinuity:
            output.trimmer.stopTrimming()
        case .property, .metadata, .warning:
            break
        }
    }

    /// Samples are converted as they come: nothing is held back.
    public func finish() {}

    private func convert(_ batch: PacketBatch) {
        guard let layout else { return }
        let channels = layout.channels
        let frames = batch.bytes.count / (layout.bytesPerSample * channels)
        output.announce(PCMFormat(sampleRate: Int(batch.format.sampleRate), channels: channels,
                                  sampleFormat: sampleFormat, codecSamples: layout.codecSamples))
        let bytes = batch.bytes
        let emit = { (pcm: UnsafeRawBufferPointer) in self.output.emit(pcm) }
        let start = { (frame: Int, channel: Int) in (frame * channels + channel) * layout.bytesPerSample }
        switch layout.encoding {
        case .integer:
            converter.convertIntegers(frames: frames, channels: channels,
                                      { layout.integer(in: bytes, at: start($0, $1)) }, body: emit)
        case .float32:
            converter.convertFloats(frames: frames, channels: channels,
                                    { Float(bitPattern: layout.bits(in: bytes, at: start($0, $1))) }, body: emit)
        case .float64:
            converter.convertFloats(frames: frames, channels: channels, { frame, channel in
                let first = UInt64(layout.bits(in: bytes, at: start(frame, channel)))
                let second = UInt64(layout.bits(in: bytes, at: start(frame, channel) + 4))
                return Double(bitPattern: layout.isBigEndian ? first << 32 | second : second << 32 | first)
            }, body: emit)
        case .companded(let table):
            converter.convertIntegers(frames: frames, channels: channels,
                                      { Int32(table[Int(bytes[start($0, $1)])]) << 16 }, body: emit)
        }
    }
}
