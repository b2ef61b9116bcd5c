import Testing
@testable import AudioFileStream

/// Frame positions kept as runs of equal frame counts: exact for every indexed packet, however counts vary,
/// and indexed anew where another stream was fed after a seek.
@Suite struct PacketIndexTests {
    /// Packets of 100 bytes back to back, with these frame counts.
    static func index(frames: [Int]) -> PacketIndex {
        var index = PacketIndex()
        for (number, count) in frames.enumerated() {
            let offset = Int64(number * 100)
            index.append(packet: index.number(ofPacketAt: offset), offset: offset, size: 100, frames: count)
        }
        return index
    }

    @Test func framePositionsFollowChangingFrameCounts() throws {
        let frames = [1152, 1152, 576, 576, 576, 1536, 960, 960]
        let index = Self.index(frames: frames)
        var start: Int64 = 0
        for (packet, count) in frames.enumerated() {
            #expect(index.framePosition(ofPacket: Int64(packet)) == start)
            let inside = try #require(index.packet(holdingFrame: start + Int64(count) - 1))
            #expect(inside.packet == Int64(packet) && inside.frameOffsetInPacket == count - 1)
            start += Int64(count)
        }
        #expect(index.packet(holdingFrame: start) == nil, "past the indexed packets")
        #expect(index.lastKnownFramePosition == (Int64(frames.count), start))
    }

    @Test func pastItsCapacityTheIndexCountsWithoutRemembering() {
        var index = PacketIndex(capacity: 2)
        for number in 0..<5 {
            let offset = Int64(number * 100)
            index.append(packet: index.number(ofPacketAt: offset), offset: offset, size: 100, frames: 1152)
        }
        #expect(index.offsets.count == 2)
        #expect(index.offset(ofPacket: 1) == 100 && index.offset(ofPacket: 2) == nil)
        #expect(index.packetCount == 5 && index.frameCount == 5 * 1152 && index.endOffset == 500)
    }

    @Test func anotherStreamAfterASeekBackIsIndexedAnew() {
        var index = Self.index(frames: [1152, 1152, 1152, 1152])
        index.reposition(to: 200)
        // Packet 2 is now another stream's: 50 bytes of 384 frames each.
        for (step, offset) in [200, 250, 300].enumerated() {
            let number = index.number(ofPacketAt: Int64(offset))
            #expect(number == Int64(2 + step))
            index.append(packet: number, offset: Int64(offset), size: 50, frames: 384)
        }
        #expect(index.offset(ofPacket: 3) == 250)
        #expect(index.framePosition(ofPacket: 3) == Int64(2 * 1152 + 384))
        #expect(index.packet(holdingFrame: 2 * 1152 + 384 + 5)?.packet == 3)
    }
}
