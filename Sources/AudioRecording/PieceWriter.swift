import AudioFileStream
import AudioFileWriting

/// A container writer with what its file states beside the packets: the MD5 of a FLAC file's decoded samples,
/// computed as its packets are appended. Recording pieces, cuts and joins write through it alike.
struct PieceWriter {
    private var writer: any ContainerWriter
    private var digest: FLACPieceDigest?

    /// Starts a file of `container` for `track` (`Container.makeWriter`).
    init(container: Container, track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64,
         to target: inout some WriteTarget) throws {
        writer = try container.makeWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        digest = (writer as? FLACWriter).map { FLACPieceDigest(track: track, bitsPerSample: $0.bitsPerSample) }
    }

    mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64, to target: inout some WriteTarget) throws {
        try writer.append(packet, frames: frames, to: &target)
        digest?.add(packet, frames: frames)
    }

    mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        if let digest, var flac = writer as? FLACWriter {
            flac.samplesDigest = digest.finish()
            writer = flac
        }
        digest = nil
        try writer.finish(trailingTrim: trailingTrim, to: &target)
    }

    /// Numbers a FLAC file's frames by sample (`FLACWriter.variableBlockSize`); nothing for another container.
    mutating func numberFLACFramesBySample() {
        guard var flac = writer as? FLACWriter else { return }
        flac.variableBlockSize = true
        writer = flac
    }

    /// Starts another edit of an M4A (`M4AWriter.startSegment`); nothing for another container.
    mutating func startSegment(leadingTrim: Int64, endingTheLastWith trailingTrim: Int64) {
        guard var m4a = writer as? M4AWriter else { return }
        m4a.startSegment(leadingTrim: leadingTrim, endingTheLastWith: trailingTrim)
        writer = m4a
    }
}

extension TrackFormat {
    /// A track of which nothing is known yet, for the parser's properties to fill in.
    static let unknown = TrackFormat(format: AudioStreamBasicDescription(
        sampleRate: 0, formatID: "    ", framesPerPacket: 0, channelsPerFrame: 0))

    /// `track` (or an unknown one) with what `event` announces of it: its DataFormat, MagicCookieData or
    /// ChannelLayout; nil for any other event.
    static func announced(by event: AudioFileStreamEvent, over track: TrackFormat?) -> TrackFormat? {
        var next = track ?? .unknown
        switch event {
        case .property(.dataFormat, .format(let format)): next.format = format
        case .property(.magicCookieData, .data(let cookie)): next.cookie = cookie
        case .property(.channelLayout, .channelLayout(let layout)): next.channelLayout = layout
        default: return nil
        }
        return next
    }
}

extension NormalizedTags {
    /// Takes the keys of `later` that are not set: the first tag of a file to state a key wins.
    mutating func fill(from later: NormalizedTags) {
        var merged = later
        merged.merge(self)
        self = merged
    }
}
