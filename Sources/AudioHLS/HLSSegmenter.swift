import AudioFileStream
import AudioFileWriting
import AudioRecording

/// Cuts a stream's packets into HLS segments and Low-Latency parts, without re-encoding, and keeps the media
/// playlist's list over them.
///
/// Takes the parser's events in stream order (`handle`), then `finish` at the stream's end. Each part, segment and
/// initialization section is handed to `publish` as soon as it is complete, and `list` then names it; files that
/// leave the window are handed over once `list` no longer names them.
///
/// Segments and parts end on packet boundaries and never last longer than their targets. A part ends as soon as
/// one more packet like its last would carry it past its target, so that it is published when its last packet
/// comes rather than the next. Durations are frames over the rate: the frames decoders give, without the priming
/// where the container states it (fragmented MP4). A new format, or any discontinuity of the stream, starts a
/// segment marked as a discontinuity, and in fragmented MP4 a new initialization section where its bytes differ.
/// What plays changing starts a segment too, which carries it as timed ID3 at its start.
///
/// Not for sharing between threads.
public final class HLSSegmenter {
    public let settings: HLSSettings
    public private(set) var list: HLSMediaList
    /// The highest bit rate of a segment so far, in bits per second (a variant's `BANDWIDTH`).
    public private(set) var peakBitRate = 0
    /// The codec of the track being cut as a variant's `CODECS` names it; nil before its first packet.
    public var codecs: String? { cutting != nil ? timeline.track.flatMap(HLSCodecs.name) : nil }
    private let publish: (HLSChange) throws -> Void
    private let clock: () -> Double
    private var timeline = StreamTimeline()
    /// How the current track is cut, and what packages its parts; nil until its first packet, and again after
    /// a discontinuity.
    private var cutting: HLSCutting?
    private var packager: (any HLSPackager)?
    /// The container of the last track cut, which the next keeps where it can carry it.
    private var lastContainer: HLSContainer?
    /// The last initialization section published, which a later track with the same bytes reuses.
    private var lastInitSection: (name: String, bytes: [UInt8])?
    private var initSections = 0
    /// The bytes of the complete parts of the segment under way.
    private var partBytes: [[UInt8]] = []
    private var isPartOpen = false
    private var partFrames: Int64 = 0
    private var nextSequence = 0
    /// Whether the next segment follows a discontinuity.
    private var isDiscontinuity = false
    /// A date and the stream position it belongs to, from which segments' dates count.
    private var dateAnchor: (date: Double, position: Int64)?
    /// What plays from the next packet on, when it changed.
    private var nowPlaying: HLSNowPlaying?
    /// Set when the format could not be cut (`take`): events are passed over until the next format.
    private var isRefusingFormat = false
    /// The longest part in frames at a rate, set by the first track cut: the list's `partTarget`.
    private var partTarget: (frames: Int64, rate: Double)?

    /// A segmenter handing what it makes to `publish`, dating segments by `clock` (seconds since 1970) at the
    /// stream's start and after each discontinuity. `settings` must have no `problems`.
    public init(settings: HLSSettings, clock: @escaping () -> Double = WallClock.now,
                publish: @escaping (HLSChange) throws -> Void) {
        self.settings = settings
        self.clock = clock
        self.publish = publish
        list = HLSMediaList(settings: settings)
    }

    /// Takes one parser event.
    /// - Throws: `WriteError.unsupportedFormat` when no HLS container carries the stream's format, or one of its
    ///   packets, or a packet is longer than the playlist's `PART-TARGET`; what `publish` throws.
    public func handle(_ event: AudioFileStreamEvent) throws {
        switch timeline.take(event) {
        case .track, .discontinuity:
            try endSegment()
            cutting = nil
            packager = nil
            dateAnchor = nil
            isDiscontinuity = !list.segments.isEmpty
        case .packets(let batch):
            for packet in batch.packets { try add(packet) }
        case .metadata, .none:
            break
        }
    }

    /// Takes one parser event as a live stream's cutter must: a format that no container carries, or a packet
    /// that none does, stops the cutting until the next format instead of ending it.
    /// - Returns: why the cutting stopped, when this event stopped it.
    public func take(_ event: AudioFileStreamEvent) -> (any Error)? {
        if isRefusingFormat {
            guard case .property(.dataFormat, _) = event else { return nil }
            isRefusingFormat = false
        }
        do {
            try handle(event)
            return nil
        } catch {
            isRefusingFormat = true
            return error
        }
    }

    /// What plays changed: the segment the next packet starts says so.
    public func noteNowPlaying(_ nowPlaying: HLSNowPlaying) {
        self.nowPlaying = nowPlaying
    }

    /// Ends the last segment and the playlist.
    /// - Throws: what `publish` throws.
    public func finish() throws {
        try endSegment()
        list.isEnded = true
        list.nextPart = nil
        try publish(.ended)
    }

    private var makesParts: Bool { settings.part > 0 }

    private func add(_ packet: AudioPacket) throws {
        guard let track = timeline.track else { return }
        let cutting = try self.cutting ?? startCutting(track, firstPacket: packet)
        let position = timeline.position
        let kept = cutting.keptFrames(of: packet, at: position)
        if makesParts, kept > cutting.partTarget { throw Self.longerThanPartTarget(kept, cutting) }
        if let segment = list.segments.last, !segment.isComplete {
            if segment.frames > 0, segment.frames + kept > cutting.segmentTarget || nowPlaying != nil {
                try endSegment()
            } else if makesParts, partFrames > 0, partFrames + kept > cutting.partTarget {
                try endPart()
            }
        }
        if list.segments.last?.isComplete != false { openSegment(at: position, cutting) }
        if !isPartOpen {
            let startsSegment = partBytes.isEmpty
            packager?.startPart(at: position - cutting.timeBase, startsSegment: startsSegment,
                                nowPlaying: startsSegment ? list.segments.last?.nowPlaying : nil)
            isPartOpen = true
        }
        try packager?.append(packet)
        partFrames += kept
        list.segments[list.segments.count - 1].frames += kept
        timeline.pass(packet)
        try endEarly(after: kept, cutting)
    }

    /// Ends the part, and the segment, that one more packet of `kept` frames would carry past its target.
    private func endEarly(after kept: Int64, _ cutting: HLSCutting) throws {
        let segmentFrames = list.segments[list.segments.count - 1].frames
        guard makesParts else {
            if segmentFrames + kept > cutting.segmentTarget { try endSegment() }
            return
        }
        guard partFrames + kept > cutting.partTarget else { return }
        // Another part like this one would carry the segment past its target: the hint names the next one's.
        if segmentFrames + partFrames > cutting.segmentTarget { return try endSegment() }
        try endPart()
    }

    private func startCutting(_ track: TrackFormat, firstPacket: AudioPacket) throws -> HLSCutting {
        // Parts are whole packets of the stream's first track, however long the next tracks' packets are.
        let rate = track.format.sampleRate
        let partTarget = self.partTarget
            ?? (makesParts ? (Self.wholePackets(of: firstPacket, within: settings.part * rate), rate) : nil)
        var cutting = try HLSCutting(track: track, settings: settings, partTarget: partTarget,
                                     preferring: lastContainer, position: timeline.position,
                                     primingEnd: timeline.trims.primingEnd)
        if self.partTarget == nil, let partTarget {
            self.partTarget = partTarget
            list.partTarget = Double(partTarget.frames) / partTarget.rate
        }
        let packager = try cutting.packager(for: track)
        lastContainer = cutting.container
        if let bytes = packager.initSection {
            if lastInitSection?.bytes != bytes {
                initSections += 1
                lastInitSection = ("init-\(initSections).mp4", bytes)
                try publish(.initSection(name: "init-\(initSections).mp4", bytes: bytes))
            }
        } else {
            lastInitSection = nil
        }
        cutting.initSection = lastInitSection?.name
        self.cutting = cutting
        self.packager = packager
        return cutting
    }

    /// A playlist states one PART-TARGET, from the stream's first track: a later packet longer than it fits no
    /// part the playlist allows (§4.4.4.9).
    private static func longerThanPartTarget(_ frames: Int64, _ cutting: HLSCutting) -> WriteError {
        let seconds = { (frames: Int64) in (Double(frames) / cutting.sampleRate * 1000).rounded() / 1000 }
        return .unsupportedFormat("a packet of \(seconds(frames)) s, longer than the playlist's PART-TARGET of "
            + "\(seconds(cutting.partTarget)) s (the part setting in whole packets of the first track): "
            + "a longer part carries it")
    }

    /// The frames of as many packets like `packet` as `frames` holds, one at least (`frames` when packets state
    /// no length).
    private static func wholePackets(of packet: AudioPacket, within frames: Double) -> Int64 {
        let target = Int64(frames.rounded(.down))
        return packet.frames > 0 ? max(1, target / packet.frames) * packet.frames : target
    }

    private func openSegment(at position: Int64, _ cutting: HLSCutting) {
        // Dates follow the audio, but never fall behind the clock: after a gap they start again from now.
        let lastEnd = list.segments.last.map { $0.date + $0.duration }
        let anchor = dateAnchor ?? (max(clock(), lastEnd ?? 0), position)
        dateAnchor = anchor
        let sequence = nextSequence
        nextSequence += 1
        list.segments.append(HLSSegmentEntry(
            sequence: sequence, name: "segment-\(sequence).\(cutting.fileExtension)", sampleRate: cutting.sampleRate,
            date: anchor.date + Double(position - anchor.position) / cutting.sampleRate,
            isDiscontinuity: isDiscontinuity, initSection: cutting.initSection, nowPlaying: nowPlaying))
        isDiscontinuity = false
        nowPlaying = nil
        if makesParts { list.nextPart = partName(sequence: sequence, index: 0, cutting) }
    }

    private func partName(sequence: Int, index: Int, _ cutting: HLSCutting) -> String {
        "part-\(sequence).\(index).\(cutting.fileExtension)"
    }

    /// Ends the part under way; the next part is the segment's next, or the next segment's first when
    /// `endsSegment`.
    private func endPart(endsSegment: Bool = false) throws {
        guard isPartOpen, let cutting, let bytes = packager?.finishPart() else { return }
        isPartOpen = false
        partBytes.append(bytes)
        defer { partFrames = 0 }
        guard makesParts else { return }
        let last = list.segments.count - 1
        let sequence = list.segments[last].sequence
        let name = partName(sequence: sequence, index: list.segments[last].parts.count, cutting)
        list.segments[last].parts.append(HLSPartEntry(name: name, frames: partFrames))
        list.nextPart = endsSegment ? partName(sequence: nextSequence, index: 0, cutting)
            : partName(sequence: sequence, index: list.segments[last].parts.count, cutting)
        try publish(.part(name: name, bytes: bytes))
    }

    private func endSegment() throws {
        try endPart(endsSegment: true)
        guard let last = list.segments.indices.last, !list.segments[last].isComplete else { return }
        list.segments[last].isComplete = true
        let bytes = partBytes.count == 1 ? partBytes[0] : Array(partBytes.joined())
        partBytes.removeAll()
        let duration = list.segments[last].duration
        if duration > 0 { peakBitRate = max(peakBitRate, Int((Double(bytes.count * 8) / duration).rounded(.up))) }
        if makesParts, let cutting { list.nextPart = partName(sequence: nextSequence, index: 0, cutting) }
        try publish(.segment(name: list.segments[last].name, bytes: bytes))
        try slideWindow()
    }

    /// Lets go of the oldest segments while those after them still fill the window.
    private func slideWindow() throws {
        var kept = list.completeSegments.reduce(0) { $0 + $1.duration }
        var removed: [String] = []
        while let first = list.segments.first, first.isComplete, kept - first.duration >= settings.window {
            list.segments.removeFirst()
            kept -= first.duration
            removed += [first.name] + first.parts.map(\.name)
            if first.isDiscontinuity { list.discontinuitySequence += 1 }
            if let section = first.initSection, !list.segments.contains(where: { $0.initSection == section }),
               section != lastInitSection?.name {
                removed.append(section)
            }
        }
        list.mediaSequence = list.segments.first?.sequence ?? nextSequence
        if !removed.isEmpty { try publish(.removed(removed)) }
    }
}
