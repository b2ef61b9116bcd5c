import AudioFileStream
import AudioLoudness
import FixtureSupport
import Foundation
@testable import StreamDaemon
import Testing

/// A silent source's bytes judged on the side: it has sound again after the rule's `back` seconds of it, and what
/// it keeps for the stream reads as a stream of its own from where it stands: the header a container needs, then
/// whole packets from a packet's start. An Ogg reader holds a page's last packets back until it knows the page's
/// end, so there the stream's parser finds the next page after the rest of one (a resync).
@Suite struct SourceWatchTests {
    /// ffmpeg's encoding of 3 s of digital silence, then 4 s of a 440 Hz tone, in `codec` and `format`.
    static func silenceThenTone(_ arguments: [String], name: String, folder: URL) throws -> [UInt8] {
        let path = folder.appendingPathComponent(name).path
        _ = try FFmpegTool.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
            "aevalsrc=exprs='if(lt(t,3),0,0.3*sin(2*PI*440*t))|if(lt(t,3),0,0.3*sin(2*PI*440*t))':s=48000:d=7",
        ] + arguments + [path])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: [
        (["-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "4"], "watch.mp3", 0),
        (["-c:a", "libopus", "-b:a", "64k"], "watch.opus", 8192),
        (["-c:a", "flac"], "watch.flac", 0),
    ])
    func soundIsHeardAndWhatIsKeptReadsAsAStream(_ encoding: [String], _ name: String, _ mostSkipped: Int) throws {
        let folder = try makeTemporaryFolder("source-watch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Self.silenceThenTone(encoding, name: name, folder: folder)
        var silent = 0.0
        let watch = SourceWatch(rule: SilenceRule(below: -50, after: 2, back: 1), typeHint: nil) { silent += $0 }
        var fed = 0
        while fed < bytes.count {
            let end = min(fed + 4096, bytes.count)
            let sounding = bytes[fed..<end].withUnsafeBytes { watch.take($0) }
            fed = end
            if sounding { break }
        }
        // Sound from 3 s: heard after 1 s of it, well before the end.
        #expect(fed < bytes.count * 6 / 7, "\(fed) of \(bytes.count) bytes")
        #expect(silent >= 2.5 && silent <= 3.1, "\(silent) s of silence")

        var seconds = 0.0
        var skipped: Int64 = 0
        var failure: Error?
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch):
                let frames = batch.descriptions.map { $0.reduce(0) { $0 + Int($1.variableFramesInPacket) } } ?? 0
                seconds += Double(frames > 0 ? frames : batch.descriptions!.count * Int(batch.format.framesPerPacket))
                    / batch.format.sampleRate
            case .discontinuity(let discontinuity): skipped += discontinuity.skippedBytes
            default: break
            }
        }
        do {
            try stream.parse(watch.kept + bytes[fed...])
            try stream.finish()
        } catch {
            failure = error
        }
        #expect(failure == nil)
        #expect(skipped <= mostSkipped, "\(skipped) bytes skipped")
        // The tone from where the watch heard it to its end at 7 s, and none of the silence again: heard 1 s into
        // the tone (`back`), later by what the reader holds before the decoder gets it (an Ogg page: 1 s here; 2.98 s
        // are kept of the MP3, 2.58 of the FLAC, 2.02 of the Opus).
        #expect(seconds >= 1.9 && seconds <= 3.05, "\(seconds) s of audio kept and after")
    }
}
