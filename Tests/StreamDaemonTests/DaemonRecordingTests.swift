import FixtureSupport
import Foundation
import Testing

/// `record:` end to end: the daemon's pieces are files ffprobe reads without a warning, joined they are the
/// stream, `status` shows the recording, and a daemon killed mid-piece leaves, once started again, only whole
/// files.
@Suite struct DaemonRecordingTests {
    static let music = Fixtures.directory.appendingPathComponent("record/cbr.mp3").path

    static func config(pace: String, loop: Bool, every: Int) -> String {
        """
        control: control.sock
        streams:
          - name: radio
            source: file:\(music)
            pace: \(pace)
            loop: \(loop)
            socket: radio.sock
            record: {path: "rec/{stream}-{n}.mp3", every: \(every)}
        """
    }

    /// The pieces in the daemon's `rec/` folder, by name, and the names of any left unfinished.
    static func pieces(in daemon: DaemonHarness) -> (whole: [String], unfinished: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: daemon.path("rec"))) ?? []
        return (names.filter { $0.hasSuffix(".mp3") }.sorted().map { daemon.path("rec/\($0)") },
                names.filter { !$0.hasSuffix(".mp3") })
    }

    @Test func aRecordedStreamIsItsPiecesJoined() throws {
        let daemon = try DaemonHarness(config: Self.config(pace: "4", loop: false, every: 4))
        try daemon.waitUntil("a piece under way") {
            let recording = try daemon.streamStatus("radio")?["recording"] as? [String: Any]
            return (recording?["currentPiece"] as? String)?.hasSuffix(".mp3") == true
        }
        try daemon.waitUntil("the stream to end", timeout: 30) { daemon.log.contains("source ended") }
        // The last piece is finished once no piece is under way, seen twice apart (a split renames one piece and
        // creates the next at once, never twice in a row).
        try daemon.waitUntil("the last piece") {
            guard Self.pieces(in: daemon).unfinished.isEmpty else { return false }
            usleep(200_000)
            return Self.pieces(in: daemon).unfinished.isEmpty
        }
        let pieces = Self.pieces(in: daemon).whole
        // 12 s of audio cut on multiples of 4 s of the wall clock, from wherever the stream began.
        #expect((3...4).contains(pieces.count), "\(pieces)")
        var joined: [Float] = []
        for piece in pieces {
            #expect(try FFmpegTool.warnings(piece) == "", "\(piece)")
            joined += try FFmpegTool.decode(piece)
        }
        let whole = try FFmpegTool.decode(Self.music)
        #expect(joined.count == whole.count)
        #expect(joined == whole)
    }

    @Test func aPieceLeftByAKilledDaemonIsRepairedAtTheNextStart() throws {
        let first = try DaemonHarness(config: Self.config(pace: "realtime", loop: true, every: 3600))
        let part = first.path("rec/radio-001.mp3.part")
        try first.waitUntil("a piece of some size") {
            ((try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? Int ?? 0) > 24_000
        }
        first.signal(SIGKILL)
        _ = try first.waitForExit()
        #expect(Self.pieces(in: first).whole.isEmpty)

        let second = try DaemonHarness(config: Self.config(pace: "realtime", loop: true, every: 3600),
                                       folder: first.folder)
        let repaired = second.path("rec/radio-001.mp3")
        try second.waitUntil("the repaired piece") { FileManager.default.fileExists(atPath: repaired) }
        try second.waitUntil("a new piece of some size") {
            let recording = try second.streamStatus("radio")?["recording"] as? [String: Any]
            return (recording?["currentBytes"] as? Int ?? 0) > 24_000
        }
        second.signal(SIGTERM)
        #expect(try second.waitForExit() == 0)
        let (pieces, unfinished) = Self.pieces(in: second)
        #expect(unfinished.isEmpty, "\(unfinished)")
        #expect(pieces.count == 2, "\(pieces)")
        for piece in pieces {
            let warnings = try FFmpegTool.warnings(piece)
            #expect(warnings == "", "\(piece): \(warnings)")
            // The header states what the file holds: mutagen's length (from the Xing frame and its LAME tag) is
            // the decode's.
            let decoded = Double(try FFmpegTool.decode(piece).count / 2) / 44_100
            let stated = try FFmpegTool.run("python3", ["-c", "import sys, mutagen.mp3; print(mutagen.mp3.MP3(sys.argv[1]).info.length)", piece]).output
            #expect(abs((Double(String(decoding: stated, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - decoded) < 0.001, "\(piece)")
            #expect(decoded > 1, "\(piece)")
        }
        withExtendedLifetime(first) {}
    }

    /// A folder that cannot be written costs the piece, shows in `status`, and recording starts again once it can.
    @Test func aFolderThatCannotBeWrittenIsAnErrorUntilItCan() throws {
        let folder = try DaemonHarness.makeFolder()
        // A file where the pieces' folder should be.
        try Data("not a folder".utf8).write(to: folder.appendingPathComponent("rec"))
        let daemon = try DaemonHarness(config: Self.config(pace: "8", loop: true, every: 3600), folder: folder)
        try daemon.waitUntil("the error in status") {
            let recording = try daemon.streamStatus("radio")?["recording"] as? [String: Any]
            return (recording?["lastError"] as? String)?.contains("Not a directory") == true
        }
        #expect(daemon.log.contains("recording: cannot create"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("rec"))
        // Tried again after 10 s of audio: here a little over a second.
        try daemon.waitUntil("a piece under way again") {
            let recording = try daemon.streamStatus("radio")?["recording"] as? [String: Any]
            return (recording?["currentBytes"] as? Int ?? 0) > 16_384
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        let (pieces, unfinished) = Self.pieces(in: daemon)
        #expect(pieces.count == 1 && unfinished.isEmpty, "\(pieces) \(unfinished)")
        #expect(daemon.log.contains("packets before it were not recorded"))
        #expect(try FFmpegTool.warnings(#require(pieces.first)) == "")
    }

    /// A reload that moves the recording finishes the piece under way and goes on in the new place, the stream
    /// and its subscribers untouched.
    @Test func aReloadFinishesThePieceAndRecordsOnAsTold() throws {
        let daemon = try DaemonHarness(config: Self.config(pace: "4", loop: true, every: 3600))
        try daemon.waitUntil("a piece of some size") {
            let recording = try daemon.streamStatus("radio")?["recording"] as? [String: Any]
            return (recording?["currentBytes"] as? Int ?? 0) > 16_384
        }
        let moved = Self.config(pace: "4", loop: true, every: 3600).replacing("rec/{stream}", with: "moved/{stream}")
        try moved.write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitUntil("the first piece finished") { Self.pieces(in: daemon).whole.count == 1 }
        try daemon.waitUntil("a piece under way in the new place") {
            let recording = try daemon.streamStatus("radio")?["recording"] as? [String: Any]
            return (recording?["currentPiece"] as? String)?.contains("/moved/") == true
        }
        #expect(daemon.log.contains("applied without a restart"))
        #expect(Self.pieces(in: daemon).unfinished.isEmpty)
        #expect(try FFmpegTool.warnings(#require(Self.pieces(in: daemon).whole.first)) == "")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }
}
