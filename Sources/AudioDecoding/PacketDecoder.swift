import AudioFileStream

/// The decoding seam: a parser's events in, PCM out, whatever the codec.
///
/// The contract every decoder keeps:
/// - `consume(_:)` takes every event of an `AudioFileStream`, in stream order. DataFormat and MagicCookieData
///   configure the codec; PacketTableInfo says which decoded frames are encoder priming and remainder, and
///   those are left out (gapless output; it counts frames at the DataFormat's rate, so HE-AAC's, stated at the
///   core's rate, is doubled for SBR's output); packet batches are decoded; a discontinuity outputs what the codec
///   still holds, then starts it afresh so nothing from before the gap is used, and trimming stops until the
///   next PacketTableInfo.
/// - The handler is called synchronously from `consume(_:)` and `finish()`, in stream order: `.format` before
///   the first PCM and whenever the PCM's rate or channel count changes (HE-AAC's doubled rate, and HE-AACv2's
///   stereo, are announced before their first PCM: a `.format` whose rate or channels differ from the
///   DataFormat's is how a listener learns of SBR or PS signalled only inside the frames, which the parser
///   cannot see), `.pcm` with interleaved frames in `sampleFormat`, `.error` for a packet the codec
///   rejects (it is left out and decoding goes on), `.unsupportedFormat` for packets no decoder here can read.
/// - `finish()` at the end of the stream outputs what the codec still holds.
public protocol PacketDecoder: AnyObject {
    /// The encoding of every sample the decoder outputs.
    var sampleFormat: PCMSampleFormat { get }

    /// Takes the parser's next event.
    func consume(_ event: AudioFileStreamEvent)

    /// The stream ended: outputs what the codec still holds.
    func finish()
}
