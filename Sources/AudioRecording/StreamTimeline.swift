import AudioFileStream
import AudioFileWriting

/// A stream's parser events read once for everything that writes pieces of it (the recorder, `cut`, `concat`):
/// the track as last announced, the source's trims placed on the stream's timeline, the position of the next
/// packet, and the lead-in a piece starting there needs. Each writer keeps only its own rules: when to split,
/// which range, which inputs.
package struct StreamTimeline {
    /// What an event means to a writer of pieces.
    package enum Change {
        /// The track changed (its format, setup bytes or channel layout).
        case track(TrackFormat)
        case packets(PacketBatch)
        case metadata(MetadataEvent)
        /// Bytes were dropped: the lead-in so far does not lead into what follows.
        case discontinuity
        /// Nothing a writer acts on: what the event says is kept here.
        case none
    }

    package private(set) var track: TrackFormat?
    /// The source's trims for the file being read (its PacketTableInfo), on the stream's timeline.
    package private(set) var trims = SourceTrims()
    /// The source's PacketTableInfo as it states it, if it does.
    private(set) var table: PacketTableInfo?
    /// Frames of the stream before the next packet.
    package private(set) var position: Int64 = 0
    /// The packets before the next one that a decoder starting there needs.
    private(set) var window = LeadInWindow()
    /// Where the file being read began (its DataFormat was announced): its PacketTableInfo counts from there.
    private var fileStart: Int64 = 0
    /// Whether packets went by since the trims were stated: a file's own jumps (an MP4 read index first) come
    /// before its packets, a new file's start after them.
    private var passedPackets = false

    package init() {}

    /// Takes one event, keeping what it says of the track, the trims and the lead-in.
    package mutating func take(_ event: AudioFileStreamEvent) -> Change {
        if let next = TrackFormat.announced(by: event, over: track) {
            if case .property(.dataFormat, _) = event { fileStart = position }
            guard next != track else { return .none }
            track = next
            window.reset(for: DecoderLeadIn.of(next.format))
            return .track(next)
        }
        switch event {
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            self.table = table
            trims = SourceTrims(table, at: fileStart)
            passedPackets = false
            return .none
        case .metadata(let metadata):
            return .metadata(metadata)
        case .discontinuity(let discontinuity):
            window.clear()
            // A new file or connection (`markNewFile`, a reconnect) states its own trims, or none: the last file's
            // audio end is not its end.
            if passedPackets, [.input, .newSegment, .reconnect].contains(discontinuity.reason) {
                fileStart = position
                trims = SourceTrims()
                table = nil
                passedPackets = false
            }
            return .discontinuity
        case .packets(let batch):
            return .packets(batch)
        case .property, .warning:
            return .none
        }
    }

    /// Moves past `packet`, which the lead-in of a later piece may need.
    package mutating func pass(_ packet: AudioPacket) {
        window.keep(packet)
        position += packet.frames
        passedPackets = true
    }

    /// Moves past `frames` frames of a packet written in part (PCM, or a FLAC frame made anew): codecs
    /// without a lead-in.
    mutating func advance(by frames: Int64) {
        position += frames
        passedPackets = true
    }

    /// Packets were lost before they came: what follows does not follow the lead-in kept.
    mutating func noteLoss() {
        window.clear()
    }

    /// The seconds `frames` frames last at the track's rate; 0 while it is unknown.
    func seconds(_ frames: Int64) -> Double {
        guard let rate = track?.format.sampleRate, rate > 0 else { return 0 }
        return Double(frames) / rate
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
