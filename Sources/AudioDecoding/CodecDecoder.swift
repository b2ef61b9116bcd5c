import AudioFileStream
import CFFmpeg

/// Decodes AAC (LC, HE-AAC, HE-AACv2), Opus, Vorbis, FLAC, ALAC, AC-3 and E-AC-3 packets to interleaved PCM with
/// FFmpeg's libavcodec, as a `PacketDecoder`.
///
/// Our parser is the demuxer: each packet goes to libavcodec whole, with the stream's magic cookie as the
/// codec's extradata. A discontinuity, DataFormat or MagicCookieData (a chained Ogg link, a changed ADTS
/// configuration) outputs what the codec holds and opens it afresh for the packets that follow, as if the stream
/// began there; a DataFormat of another codec drops the cookie of the last. PacketTableInfo trims priming
/// and remainder frames; libavcodec trims nothing itself, since the skip counts ffmpeg's demuxers would attach
/// to packets are not given. Samples convert as libswresample converts them, so the output is `ffmpeg -f s16le`'s
/// (or `f32le`'s) with the same trimming.
public final class CodecDecoder: PacketDecoder {
    public let sampleFormat: PCMSampleFormat
    private var output: PCMOutput
    private var converter: SampleConverter
    /// The codec for the packets, opened at the first packet after its configuration.
    private var codec: CodecContext?
    private var dataFormat: AudioStreamBasicDescription?
    private var magicCookie: [UInt8] = []
    /// The DataFormat whose packets cannot be decoded, reported once.
    private var refusedFormat: AudioStreamBasicDescription?

    public init(sampleFormat: PCMSampleFormat = .float32, handler: @escaping (DecoderEvent) -> Void) {
        self.sampleFormat = sampleFormat
        output = PCMOutput(handler: handler)
        converter = SampleConverter(sampleFormat: sampleFormat)
    }

    /// Whether libavcodec decodes packets of `formatID` here.
    public static func decodes(_ formatID: FourCharCode) -> Bool {
        codecID(of: formatID) != nil
    }

    public func consume(_ event: AudioFileStreamEvent) {
        switch event {
        case .property(.dataFormat, .format(let format)):
            reconfigure {
                // A native FLAC stream states its cookie before its first DataFormat: only a change of codec drops it.
                if let previous = dataFormat, previous.formatID != format.formatID { magicCookie = [] }
                dataFormat = format
            }
        case .property(.magicCookieData, .data(let cookie)):
            reconfigure { magicCookie = cookie }
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            output.trimmer.note(table)
        case .packets(let batch):
            decode(batch)
        case .discontinuity:
            // Flushing leaves some codec state (AAC's window shapes) as it was: opening afresh drops it all.
            drain()
            codec = nil
            output.trimmer.stopTrimming()
        case .property, .metadata, .warning:
            break
        }
    }

    public func finish() {
        drain()
    }

    /// The codec's configuration changes: what it holds is output, and it opens again at the next packet.
    private func reconfigure(_ change: () -> Void) {
        drain()
        codec = nil
        refusedFormat = nil
        change()
        output.trimmer.formatChanged()
    }

    private func decode(_ batch: PacketBatch) {
        guard let codec = openCodec(for: batch.format) else { return }
        for packet in batch.packets { decode(packet, with: codec) }
    }

    /// Decodes `packet`; one the codec rejects is reported and skipped.
    private func decode(_ packet: AudioPacket, with codec: CodecContext) {
        do {
            try codec.send(packet.bytes)
        } catch {
            output.report(.error(DecodeError("\(error) in the packet at offset \(packet.offset); skipped")))
        }
        receiveFrames(from: codec)
    }

    /// The open codec for packets of `format`, opening it if needed; nil, reported once, when it cannot be.
    private func openCodec(for format: AudioStreamBasicDescription) -> CodecContext? {
        if let codec { return codec }
        guard refusedFormat != format else { return nil }
        guard let codecID = Self.codecID(of: format.formatID), let decoder = avcodec_find_decoder(codecID) else {
            refusedFormat = format
            output.report(.unsupportedFormat(format.formatID))
            return nil
        }
        do {
            let extradata = CodecExtradata.extradata(for: format.formatID, magicCookie: magicCookie)
            codec = try CodecContext(decoder: decoder, format: dataFormat ?? format, extradata: extradata)
        } catch {
            refusedFormat = format
            output.report(.error(DecodeError("\(error); its packets are left out")))
        }
        return codec
    }

    /// Outputs every frame the codec holds and leaves it ready for new packets.
    private func drain() {
        guard let codec else { return }
        codec.drain()
        receiveFrames(from: codec)
    }

    private func receiveFrames(from codec: CodecContext) {
        do {
            try codec.receiveFrames { frame in emit(frame.pointee) }
        } catch {
            output.report(.error(error as? DecodeError ?? DecodeError("\(error)")))
        }
    }

    /// Converts a decoded frame (planar or interleaved, in the codec's sample format) and outputs it.
    private func emit(_ frame: AVFrame) {
        let channels = Int(frame.ch_layout.nb_channels)
        let frames = Int(frame.nb_samples)
        guard channels > 0, frames > 0, let pointers = frame.extended_data else { return }
        let frameFormat = AVSampleFormat(rawValue: frame.format)
        let packedFormat = av_get_packed_sample_fmt(frameFormat)
        output.announce(PCMFormat(
            sampleRate: Int(frame.sample_rate), channels: channels, sampleFormat: sampleFormat,
            codecSamples: Self.codecSamples(packedFormat)))
        output.trimmer.decodedFramesPerStatedFrame = Self.framesPerStatedFrame(decodedAt: Int(frame.sample_rate),
                                                                                statedAt: dataFormat?.sampleRate)
        let planes = FramePlanes(pointers: pointers, isPlanar: av_sample_fmt_is_planar(frameFormat) != 0,
                                 frames: frames, channels: channels)
        let toOutput = { (bytes: UnsafeRawBufferPointer) in self.output.emit(bytes) }
        switch packedFormat {
        case AV_SAMPLE_FMT_FLT:
            converter.convertFloats(planes, as: Float.self, body: toOutput)
        case AV_SAMPLE_FMT_DBL:
            converter.convertFloats(planes, as: Double.self, body: toOutput)
        case AV_SAMPLE_FMT_S16:
            converter.convertIntegers(planes, as: Int16.self, leftAligned: { Int32($0) << 16 }, body: toOutput)
        case AV_SAMPLE_FMT_S32:
            converter.convertIntegers(planes, as: Int32.self, leftAligned: { $0 }, body: toOutput)
        case AV_SAMPLE_FMT_U8:
            converter.convertIntegers(planes, as: UInt8.self, leftAligned: { (Int32($0) - 128) << 24 }, body: toOutput)
        default:
            output.report(.error(DecodeError("libavcodec gave samples of an unknown format (\(frame.format))")))
        }
    }

    private static func codecSamples(_ format: AVSampleFormat) -> CodecSamples {
        switch format {
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_U8: .shortInteger
        case AV_SAMPLE_FMT_S32: .wideInteger
        default: .float
        }
    }

    /// How many frames decode from each frame the packet table counts: the ratio of the decoded rate to the
    /// DataFormat's when it is a whole one (HE-AAC's SBR doubles its core's rate, which the DataFormat states,
    /// as does the MP4 edit list the table comes from), else 1.
    private static func framesPerStatedFrame(decodedAt decodedRate: Int, statedAt statedRate: Double?) -> Int64 {
        guard let statedRate, statedRate > 0, Double(decodedRate) > statedRate,
              Double(decodedRate).truncatingRemainder(dividingBy: statedRate) == 0 else { return 1 }
        return Int64(Double(decodedRate) / statedRate)
    }

    /// libavcodec's decoder for packets of `formatID`.
    private static func codecID(of formatID: FourCharCode) -> AVCodecID? {
        switch formatID {
        case AudioFormatID.mpeg4AAC, AudioFormatID.mpeg4AACHighEfficiency, AudioFormatID.mpeg4AACHighEfficiencyV2:
            AV_CODEC_ID_AAC
        case AudioFormatID.opus: AV_CODEC_ID_OPUS
        case AudioFormatID.vorbis: AV_CODEC_ID_VORBIS
        case AudioFormatID.flac: AV_CODEC_ID_FLAC
        case AudioFormatID.appleLossless: AV_CODEC_ID_ALAC
        case AudioFormatID.ac3: AV_CODEC_ID_AC3
        case AudioFormatID.enhancedAC3: AV_CODEC_ID_EAC3
        case AudioFormatID.appleIMA4: AV_CODEC_ID_ADPCM_IMA_QT
        default: nil
        }
    }
}
