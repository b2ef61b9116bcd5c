import AudioFileStream
import AudioHLS
import FixtureSupport

/// What cutting any stream into HLS keeps, whatever its bytes: the parser's events of a fuzzed scenario (its
/// chunks, cuts and discontinuities) go to a segmenter whose settings the scenario's seed picks, and after each
/// change the playlist and its delta update keep RFC 8216bis's rules (`PlaylistChecker`), continue the playlist
/// before, and name only files that were made and are still there. Shared by the HLS fuzz target (Fuzz/HLS) and
/// its tests.
public enum HLSInvariants {
    /// The settings a scenario's chunk seed picks: the container (codec's own, packed or fmp4), parts or none and
    /// their length, the segment's.
    public static func settings(seed: UInt64) -> HLSSettings {
        let segment = [0.1, 1, 2][Int((seed >> 5) % 3)]
        let part = (seed >> 2) & 1 == 0 ? 0 : min(segment, [0.05, 0.25, 0.5][Int((seed >> 3) % 3)])
        return HLSSettings(segment: segment, part: part, window: 3 * segment,
                           container: [nil, .packed, .fmp4][Int(seed % 3)])
    }

    /// Cuts the scenario's stream.
    /// - Returns: the segments made.
    /// - Throws: the first invariant broken.
    @discardableResult
    public static func check(_ scenario: FuzzScenario) throws(InvariantViolation) -> Int {
        let seed: UInt64 = if case .seeded(let seed) = scenario.chunks { seed } else { 0 }
        let run = HLSCheckedRun(settings: settings(seed: seed))
        run.play(scenario)
        if let violation = run.violation { throw violation }
        return run.segments
    }
}

/// One scenario cut into HLS, checked after each change.
private final class HLSCheckedRun {
    private var segmenter: HLSSegmenter?
    /// The files made and not yet removed.
    private var files: Set<String> = []
    private var lastPlaylist: PlaylistChecker?
    private(set) var segments = 0
    private(set) var violation: InvariantViolation?

    init(settings: HLSSettings) {
        segmenter = HLSSegmenter(settings: settings, clock: { 1_780_000_000 }) { [unowned self] in published($0) }
    }

    func play(_ scenario: FuzzScenario) {
        do {
            // A format no container carries stops the cutting until the next one, as in the daemon.
            let stream = try AudioFileStream(fileTypeHint: scenario.hint) { [self] in _ = segmenter?.take($0) }
            try scenario.play(parse: { bytes, cut in
                let offset = cut.flatMap { $0.givesOffset ? Int64($0.resume) : nil }
                let isFlagged = cut?.isFlagged ?? false
                try bytes.withUnsafeBytes { try stream.parse($0, discontinuity: isFlagged, offset: offset) }
            }, mark: { try stream.markDiscontinuity($0) })
            try stream.finish()
        } catch {
            // The parser refused the bytes: what was cut before stands, and the playlist ends.
        }
        do {
            try segmenter?.finish()
        } catch {
            fail("finish threw \(error)")
        }
    }

    private func published(_ change: HLSChange) {
        let what: String
        switch change {
        case .initSection(let name, let bytes), .part(let name, let bytes), .segment(let name, let bytes):
            what = name
            if files.contains(name) { fail("\(name) was made twice") }
            if bytes.isEmpty { fail("\(name) is empty") }
            files.insert(name)
            if case .segment = change { segments += 1 }
        case .removed(let names):
            what = "the removal of \(names.joined(separator: ", "))"
            for name in names where files.remove(name) == nil { fail("\(name) was removed but never made") }
        case .ended:
            what = "the end"
        }
        guard let list = segmenter?.list else { return }
        let playlist = PlaylistChecker(HLSPlaylistWriter.media(list))
        let delta = PlaylistChecker(HLSPlaylistWriter.media(list, HLSPlaylistWriter.Request(skipsOldSegments: true)))
        for violation in playlist.violations + delta.violations { fail("after \(what): \(violation)") }
        if let lastPlaylist {
            for violation in PlaylistChecker.continuity(from: lastPlaylist, to: playlist) {
                fail("after \(what): \(violation)")
            }
        }
        lastPlaylist = playlist
        let named = list.segments.flatMap { segment in
            (segment.isComplete ? [segment.name] : []) + segment.parts.map(\.name)
                + [segment.initSection].compactMap { $0 }
        }
        for name in named where !files.contains(name) { fail("the playlist names \(name), which is not there") }
    }

    private func fail(_ message: String) {
        if violation == nil { violation = InvariantViolation(description: message) }
    }
}
