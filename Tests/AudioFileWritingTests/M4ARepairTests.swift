import AudioFileWriting
import Foundation
import FixtureSupport
import Testing

@Suite final class M4ARepairTests {
    /// This test's files, removed when it ends.
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("m4a-writer")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A piece cut at any byte after its header is repaired into a file that ffprobe reads without a warning,
    /// holding every packet whole before the cut (by ffprobe's packet list of the finished piece) and decoding to
    /// the finished piece's samples as far as they go.
    @Test func aPieceCutAnywhereIsRepaired() throws {
        let whole = folder.appendingPathComponent("whole.m4a").path
        let parsed = try ParsedTrack(Fixtures.aacWithoutNoiseSubstitution)
        let table = try #require(parsed.packetTable)
        try parsed.writeM4A(0..<parsed.packets.count, leadingTrim: Int64(table.primingFrames),
                            trailingTrim: Int64(table.remainderFrames), to: whole)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let packetEnds = try Self.packetEnds(whole)
        #expect(packetEnds.count == parsed.packets.count)
        let wholeDecode = try FFmpegTool.decode(whole)
        let channels = Int(parsed.track.format.channelsPerFrame)

        let boxes = ParsedTrack.topLevelBoxes(bytes)
        let headerEnd = boxes[1].range.upperBound
        var generator = TestRandom(seed: 26)
        // Either side of every box's start and inside its header, around the first packets' ends, and at random.
        var cuts = Set<Int>()
        for start in boxes.map(\.range.lowerBound) { cuts.formUnion([start - 1, start, start + 9]) }
        for end in packetEnds.prefix(3) { cuts.formUnion([end - 1, end, end + 1]) }
        for _ in 0..<24 { cuts.insert(headerEnd + Int(generator.next() % UInt64(bytes.count - headerEnd))) }
        cuts = cuts.filter { $0 > 0 && $0 < bytes.count }
        for cut in cuts.sorted() {
            let part = folder.appendingPathComponent("cut-\(cut).m4a.part").path
            try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: part))
            guard cut >= headerEnd else {
                #expect(throws: WriteError.self) { try M4AWriter.repair(path: part) }
                continue
            }
            let kept = packetEnds.filter { $0 <= cut }.count
            #expect(try M4AWriter.repair(path: part) == kept, "cut at \(cut)")
            #expect(try FFmpegTool.warnings(part) == "", "cut at \(cut)")
            // ffprobe counts no packets as none at all.
            let counted = try M4ATools.probe(part, stream: "nb_read_packets", countPackets: true)
            #expect(counted == (kept == 0 ? "N/A" : "\(kept)"), "cut at \(cut)")
            let decoded = try FFmpegTool.decode(part)
            let frames = max(Int(parsed.frame(atPacket: kept)) - Int(table.primingFrames), 0)
            #expect(decoded == Array(wholeDecode.prefix(frames * channels)), "cut at \(cut)")
        }
        #expect(cuts.count >= 40)
    }

    /// A finished piece is left as it is, and so is a repaired one; a repair cut short (a crash while repairing)
    /// is repaired again into the same file.
    @Test func repairingAgainChangesNothing() throws {
        let path = folder.appendingPathComponent("piece.m4a.part").path
        let parsed = try ParsedTrack(Fixtures.directory.appendingPathComponent("mp4/alac.m4a"))
        try parsed.writeM4A(0..<parsed.packets.count, leadingTrim: 0, trailingTrim: 0, to: path)
        let finished = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try M4AWriter.repair(path: path) == parsed.packets.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == finished)

        let movie = try #require(ParsedTrack.topLevelBoxes([UInt8](finished)).last { $0.type == "moov" }?.range)
        try finished.prefix(movie.lowerBound - 5).write(to: URL(fileURLWithPath: path))
        try M4AWriter.repair(path: path)
        let repaired = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try FFmpegTool.warnings(path) == "")
        for cut in [repaired.count - 1, repaired.count - 200] {
            try repaired.prefix(cut).write(to: URL(fileURLWithPath: path))
            try M4AWriter.repair(path: path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == repaired)
        }
        try M4AWriter.repair(path: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == repaired)
    }

    /// Junk is refused, and junk after a piece's header, or an index that claims more than its chunk holds, is
    /// cut away: nothing traps.
    @Test func junkNeverTraps() throws {
        let path = folder.appendingPathComponent("junk.m4a.part").path
        let parsed = try ParsedTrack(Fixtures.aacWithoutNoiseSubstitution)
        try parsed.writeM4A(0..<60, leadingTrim: 0, trailingTrim: 0, to: path)
        let piece = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let boxes = ParsedTrack.topLevelBoxes(piece)
        var generator = TestRandom(seed: 28)
        let junk = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }

        try Data(junk).write(to: URL(fileURLWithPath: path))
        #expect(throws: WriteError.self) { try M4AWriter.repair(path: path) }

        try Data(piece[..<boxes[1].range.upperBound] + junk).write(to: URL(fileURLWithPath: path))
        #expect(try M4AWriter.repair(path: path) == 0)
        #expect(try FFmpegTool.warnings(path) == "")

        // The first chunk's index says its first packet is 2^32 - 1 bytes long.
        var lying = Array(piece[..<boxes[3].range.upperBound])
        let firstSize = boxes[2].range.lowerBound + 16
        lying.replaceSubrange(firstSize..<firstSize + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        try Data(lying).write(to: URL(fileURLWithPath: path))
        #expect(try M4AWriter.repair(path: path) == 0)
        #expect(try FFmpegTool.warnings(path) == "")
    }

    /// Where each packet of the file ends, by ffprobe.
    private static func packetEnds(_ path: String) throws -> [Int] {
        let output = try FFmpegTool.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                  "packet=pos,size", "-of", "csv=p=0", path]).output
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            let fields = $0.split(separator: ",").compactMap { Int($0) }
            return fields[0] + fields[1]
        }
    }
}
