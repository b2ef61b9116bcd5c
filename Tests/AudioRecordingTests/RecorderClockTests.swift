import AudioFileStream
import AudioRecording
import FixtureSupport
import Foundation
import Testing

/// A recording whose source lost time (15 s of dead air) is set on the wall clock again: the piece under way ends
/// at the split it has passed, and the next ones are named and cut by the clock, not 15 s early for good.
@Suite struct RecorderClockTests {
    @Test func piecesAfterAStallAreOnTheClock() throws {
        let folder = try makeTemporaryFolder("recorder-clock")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A multiple of 60 s, so that `every: 5` splits at 5, 10 … s of audio from it.
        let origin = 1_700_000_040.0
        let recorder = StreamRecorder(
            settings: RecordingSettings(template: try PieceNameTemplate(folder.path + "/{n}.mp3"), stream: "s",
                                        every: 5),
            clockOrigin: origin)
        var pieces: [RecordedPiece] = []
        recorder.finished = { pieces.append($0) }
        recorder.failed = { Issue.record("\($0)") }
        // 12 s at 44.1 kHz; after 7 s of it the source stalls for 15 s.
        let bytes = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("record/cbr.mp3")))
        var frames: Int64 = 0
        var stalled = false
        let stream = try AudioFileStream(fileTypeHint: nil) { event in
            if case .packets(let batch) = event {
                if !stalled, frames >= 7 * 44_100 {
                    stalled = true
                    recorder.setClock(nextFrameAt: origin + Double(frames) / 44_100 + 15)
                }
                frames += batch.frameCount
            }
            recorder.handle(event)
        }
        // Small chunks, so that batches are a few packets each.
        for start in stride(from: 0, to: bytes.count, by: 512) {
            try stream.parse(Array(bytes[start..<min(start + 512, bytes.count)]))
        }
        try stream.finish()
        recorder.finish()
        let starts = pieces.map { $0.start - origin }
        try #require(starts.count == 4, "\(starts)")
        #expect(starts[0] == 0 && abs(starts[1] - 5) < 0.03)
        // The second piece ended where the stall was found, past its split at 10 s; the third started then, 15 s
        // later on the clock, and ended at the next split, 25 s.
        #expect(abs(starts[2] - 22) < 0.1, "\(starts)")
        #expect(abs(starts[3] - 25) < 0.03, "\(starts)")
    }
}
