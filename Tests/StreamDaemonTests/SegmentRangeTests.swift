import AudioFileStream
@testable import StreamDaemon
import Testing

/// Which packets of a file a segment gives, and the trims it states, on packets made up for the purpose: the
/// expected values are worked out by hand from the packet grid.
@Suite struct SegmentRangeTests {
    static let mp3 = AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.mpegLayer3,
                                                 framesPerPacket: 1152, channelsPerFrame: 2)
    static let opus = AudioStreamBasicDescription(sampleRate: 48_000, formatID: AudioFormatID.opus,
                                                  framesPerPacket: 0, channelsPerFrame: 2)

    /// What a segment gave: its tables and the indexes of its packets, in order.
    struct Given: Equatable {
        var tables: [PacketTableInfo] = []
        var packets: [Int64] = []
    }

    /// Feeds `count` packets of `frames` each (`variable` when the format does not fix them) in batches of
    /// `batchSize`, after the file's `table`.
    static func give(_ item: PlaylistItem, format: AudioStreamBasicDescription, table: PacketTableInfo?,
                     count: Int, frames: UInt32, batchSize: Int = 7) -> Given {
        var range = SegmentRange(item: item)
        var given = Given()
        if let table { #expect(range.note(fileTable: table) == nil) }
        for first in stride(from: 0, to: count, by: batchSize) {
            let indexes = first..<min(first + batchSize, count)
            let bytes = [UInt8](repeating: 0, count: indexes.count * 4)
            let descriptions = indexes.map { index in
                AudioStreamPacketDescription(startOffset: Int64((index - first) * 4),
                                             variableFramesInPacket: format.framesPerPacket == 0 ? frames : 0,
                                             dataByteSize: 4)
            }
            bytes.withUnsafeBytes { bytes in
                descriptions.withUnsafeBufferPointer { descriptions in
                    let batch = PacketBatch(bytes: bytes, format: format, descriptions: descriptions,
                                            streamOffset: Int64(first * 4), firstPacketIndex: Int64(first),
                                            followsDiscontinuity: false, isAssembled: false)
                    range.select(batch) { output in
                        switch output {
                        case .table(let table, _): given.tables.append(table)
                        case .packets(let batch):
                            given.packets += (0..<Int64(batch.descriptions!.count)).map { batch.firstPacketIndex + $0 }
                        }
                    }
                }
            }
        }
        return given
    }

    /// MP3 from 1 s to 2 s of a file with 1105 frames of priming: the start is frame 45,205, in packet 39
    /// (44,928..<46,080), the end frame 89,305 in packet 77 (88,704..<89,856); ten packets of lead-in before.
    @Test func anMP3RangeStartsTenPacketsEarlyAndStatesItsTrims() {
        let file = PacketTableInfo(validFrames: 500_000, primingFrames: 1105, remainderFrames: 0)
        let given = Self.give(PlaylistItem(path: "x.mp3", from: 1, to: 2), format: Self.mp3, table: file,
                              count: 200, frames: 1152)
        #expect(given.packets == Array(29...77))
        #expect(given.tables == [PacketTableInfo(validFrames: 44_100, primingFrames: 45_205 - 29 * 1152,
                                                 remainderFrames: 89_856 - 89_305)])
    }

    /// A range from 0 to the file's end keeps the file's own trims, and every packet.
    @Test func aWholeFileKeepsItsOwnTrims() {
        let file = PacketTableInfo(validFrames: 20 * 1152 - 1105 - 300, primingFrames: 1105, remainderFrames: 300)
        let given = Self.give(PlaylistItem(path: "x.mp3"), format: Self.mp3, table: file, count: 20, frames: 1152)
        #expect(given.packets == Array(0...19))
        #expect(given.tables == [file])
    }

    /// Opus packets of varying size: the remainder is known only at the last packet, and stated again before it.
    /// From 1 s (48,000 + 312 of pre-skip, in packet 50 of 960 frames) with 480 ms of lead-in (24 packets).
    @Test func anOpusRangeStatesItsRemainderBeforeItsLastPacket() {
        let file = PacketTableInfo(validFrames: 0, primingFrames: 312, remainderFrames: 0)
        let given = Self.give(PlaylistItem(path: "x.opus", from: 1, to: 1.5), format: Self.opus, table: file,
                              count: 200, frames: 960)
        // The end, frame 72,312, is in packet 75 (72,000..<72,960).
        #expect(given.packets == Array(26...75))
        let priming = Int32(48_312 - 26 * 960)
        #expect(given.tables == [PacketTableInfo(validFrames: 24_000, primingFrames: priming, remainderFrames: 0),
                                 PacketTableInfo(validFrames: 24_000, primingFrames: priming, remainderFrames: 648)])
    }

    /// A range that starts past the file's end gives nothing.
    @Test func aRangeBeyondTheFileGivesNothing() {
        let file = PacketTableInfo(validFrames: 10 * 1152, primingFrames: 0, remainderFrames: 0)
        let given = Self.give(PlaylistItem(path: "x.mp3", from: 60), format: Self.mp3, table: file, count: 12, frames: 1152)
        #expect(given == Given())
    }
}
