import AudioFileStream
import AudioFileWriting

/// How the current track's packets are cut: its container, its clock, and the targets in frames.
struct HLSCutting {
    let container: HLSContainer
    let sampleRate: Double
    let fileExtension: String
    /// The stream position of media time 0, where the packager's timeline starts.
    let timeBase: Int64
    /// The stream position from which frames count: before it, the priming the container leaves out.
    let keptFrom: Int64
    let segmentTarget: Int64
    /// 0 without parts.
    let partTarget: Int64
    /// The name of the initialization section the parts need; nil for packed audio.
    var initSection: String?

    /// Cuts `track`'s packets from stream position `position`, where `primingEnd` is the end of the source's
    /// priming, into parts of at most `partTarget` frames at `rate` (nil without parts).
    /// - Throws: `WriteError.unsupportedFormat` when no container of `settings` can carry the track.
    init(track: TrackFormat, settings: HLSSettings, partTarget: (frames: Int64, rate: Double)?,
         preferring preferred: HLSContainer?, position: Int64, primingEnd: Int64) throws {
        let format = track.format
        let requested = settings.container ?? preferred.flatMap { $0.canCarry(format) ? $0 : nil }
        container = try HLSContainer.chosen(requested, for: format)
        sampleRate = format.sampleRate
        guard sampleRate >= 1 else { throw WriteError.unsupportedFormat("a stream of \(sampleRate) Hz") }
        fileExtension = container.segmentExtension(for: format)
        timeBase = position
        let leadingTrim = container.statesPriming ? max(0, primingEnd - position) : 0
        keptFrom = position + leadingTrim
        segmentTarget = Int64((settings.segment * sampleRate).rounded(.down))
        // Exact at the rate it was counted at: F × R / R is F in floating point for whole F and R.
        let rate = sampleRate
        self.partTarget = partTarget.map { Int64((Double($0.frames) * rate / $0.rate).rounded(.down)) } ?? 0
    }

    /// A packager of `track`'s packets in the container.
    /// - Throws: `WriteError.unsupportedFormat` when the container cannot carry the track.
    func packager(for track: TrackFormat) throws -> any HLSPackager {
        switch container {
        case .packed: try PackedAudioPackager(track: track)
        case .fmp4: try CMAFPackager(track: track, leadingTrim: keptFrom - timeBase)
        }
    }

    /// The frames of `packet`, at stream position `position`, that its decoders give.
    func keptFrames(of packet: AudioPacket, at position: Int64) -> Int64 {
        max(0, position + packet.frames - max(position, keptFrom))
    }
}
