@testable import AudioFileStream
@testable import StreamDaemon
import Testing

/// Which of the parser's events a playlist's segments pass on, and as what.
@Suite struct CompositionTests {
    /// The events `composition` passes on for `events`, as the pipeline gets them.
    static func pass(_ events: [AudioFileStreamEvent], through composition: inout Composition)
        -> [(AudioFileStreamEvent, startsSegment: Bool)] {
        var passed: [(AudioFileStreamEvent, startsSegment: Bool)] = []
        for event in events { composition.pass(event) { passed.append(($0, $1)) } }
        return passed
    }

    static var join: AudioFileStreamEvent {
        .discontinuity(Discontinuity(offset: 100, skippedBytes: 0, reason: .newSegment))
    }
    static var fileTable: AudioFileStreamEvent {
        .property(.packetTableInfo, .packetTableInfo(PacketTableInfo(validFrames: 1000, primingFrames: 0, remainderFrames: 0)))
    }

    /// Bytes that went on the air before any segment (a fallback playlist's item, released from its probe) pass
    /// as they are; the next item, marked by its join, is cut: its file's table is its own, not passed on.
    @Test func aJoinStartsTheNextSegmentEvenAfterUncutBytes() {
        var composition = Composition()
        let before = Self.pass([Self.fileTable], through: &composition)
        #expect(before.count == 1)
        composition.begin(PlaylistItem(path: "b.flac", from: 1), awaitsJoin: true)
        let after = Self.pass([Self.join, Self.fileTable], through: &composition)
        #expect(after.count == 1)
        if case .discontinuity(let discontinuity) = after.first?.0 { #expect(discontinuity.reason == .newSegment) }
    }
}
