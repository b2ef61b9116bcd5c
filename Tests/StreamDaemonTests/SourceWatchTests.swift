import AudioFileStream
import AudioLoudness
import FixtureSupport
import Foundation
@testable import StreamDaemon
import Testing

/// A silent source's bytes judged on the side, from the middle of its connection, as a watch begins once a fallback
/// has the air: it has sound again after the rule's `back` seconds of it, and what it keeps for the stream reads
/// as a stream of its own from where it stands: the header a container needs (found in the connection's start),
/// then whole packets from a packet's start. An Ogg reader holds a page's last packets back until it knows the page's
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

    /// Where the first packet at or after each time starts in `bytes`, as the parser finds them.
    static func packetStarts(_ bytes: [UInt8]) throws -> (Double) -> Int {
        var starts: [(seconds: Double, offset: Int)] = []
        var seconds = 0.0
        let stream = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            for packet in batch.packets {
                starts.append((seconds, Int(packet.offset)))
                seconds += Double(packet.frames) / batch.format.sampleRate
            }
        }
        try stream.parse(bytes)
        try stream.finish()
        return { time in starts.first { $0.seconds >= time }?.offset ?? bytes.count }
    }

    @Test(arguments: [
        (["-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "4"], "watch.mp3", 0),
        // Pages of 100 ms, as streaming encoders cut them (ffmpeg's own default is a second).
        (["-c:a", "libopus", "-b:a", "64k", "-page_duration", "100000"], "watch.opus", 1024),
        (["-c:a", "flac"], "watch.flac", 0),
    ])
    func soundIsHeardAndWhatIsKeptReadsAsAStream(_ encoding: [String], _ name: String, _ mostSkipped: Int) throws {
        let folder = try makeTemporaryFolder("source-watch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Self.silenceThenTone(encoding, name: name, folder: folder)
        var silent = 0.0
        // The connection's start up to the packet at 0.5 s, then its bytes from just after the packet at 2 s:
        // silence still, mid-packet.
        let starts = try Self.packetStarts(bytes)
        let watch = SourceWatch(rule: SilenceRule(below: -50, after: 2, back: 1), typeHint: nil,
                                start: Array(bytes[..<starts(0.5)])) { silent += $0 }
        var fed = starts(2) + 1
        while fed < bytes.count {
            let end = min(fed + 4096, bytes.count)
            let sounding = bytes[fed..<end].withUnsafeBytes { watch.take($0) }
            fed = end
            if sounding { break }
        }
        // Sound from 3 s: heard after 1 s of it, well before the end.
        #expect(fed < bytes.count * 6 / 7, "\(fed) of \(bytes.count) bytes")
        #expect(silent >= 0.7 && silent <= 1.1, "\(silent) s of silence")

        var seconds = 0.0
        var skipped: Int64 = 0
        var failure: Error?
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch):
                seconds += Double(batch.packets.reduce(0) { $0 + Int($1.frames) }) / batch.format.sampleRate
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
        // The tone from where the watch heard it, 1 s into it (`back`), to its end at 7 s, and none of the silence
        // again: 2.98 s of the MP3, 2.97 of the FLAC, 3.02 of the Opus (whose held-back packet went as a resync).
        #expect(seconds >= 2.8 && seconds <= 3.05, "\(seconds) s of audio kept and after")
    }
}
