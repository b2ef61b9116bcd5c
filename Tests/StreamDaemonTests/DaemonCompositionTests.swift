import AudioStreamProtocol
import FixtureSupport
import Foundation
import Testing

/// A playlist of time ranges across a change of codec (FLAC, MP3, FLAC) end to end. The PCM a subscriber gets is
/// ffmpeg's `atrim` of each lossless range, sample for sample, and the MP3 range within the difference between
/// mpg123's and ffmpeg's decodes of it (measured here); packet subscribers get a `newSegment` discontinuity and a
/// PacketTableInfo per segment, whose trims leave each range's exact length; a missing item is skipped with a
/// warning.
@Suite struct DaemonCompositionTests {
    static let mp3 = Fixtures.directory.appendingPathComponent("record/cbr.mp3").path
    static let alpha = Fixtures.directory.appendingPathComponent("playlist/alpha.flac").path
    static let gamma = Fixtures.directory.appendingPathComponent("playlist/gamma.flac").path
    static let rate = 44_100.0

    /// A segment: its file and its range in samples, as ffmpeg's `atrim` takes them.
    struct Segment {
        let path: String
        let from: Double
        let to: Double
        var rate = DaemonCompositionTests.rate
        var startSample: Int { Int((from * rate).rounded()) }
        var endSample: Int { Int((to * rate).rounded()) }
        var frames: Int { endSample - startSample }
        var yaml: String { "{file: \(path), from: \(from), to: \(to)}" }
    }

    /// What the subscriber got, split at each `newSegment` discontinuity.
    struct Received {
        var pcm: [Float] = []
        var tables: [[[String: Any]]] = [[]]
        var packetFrames: [Int] = [0]
        var packetTimestamps: [(timestamp: Int64, frames: Int)] = []
        var warnings: [String] = []
        /// The titles of each part's tags.
        var titles: [[String]] = [[]]
        var pcmFormats: Set<[Int]> = []
        var end: [String: Any]?
    }

    @Test func aCompositionOfRangesAcrossFormatsIsCutAndJoinedExactly() throws {
        let segments = [
            Segment(path: Self.alpha, from: 0.5, to: 2.25), Segment(path: Self.mp3, from: 4.25, to: 6.5),
            Segment(path: Self.gamma, from: 1, to: 2),
        ]
        // The first item plays while the subscriber joins; the missing one and the one that is not audio are
        // skipped.
        let folder = try DaemonHarness.makeFolder()
        try Data(String(repeating: "not audio at all\n", count: 1000).utf8).write(to: folder.appendingPathComponent("notes.mp3"))
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: show
                socket: show.sock
                source:
                  playlist:
                    - {file: \(Self.mp3), to: 8}
                    - \(segments[0].yaml)
                    - {file: missing.flac}
                    - {file: notes.mp3}
                    - \(segments[1].yaml)
                    - \(segments[2].yaml)
                  pace: 2
            """, folder: folder)
        let received = try Self.receive(from: daemon)
        #expect(received.end?["reason"] as? String == "sourceEnded", "\(daemon.log)")
        #expect(received.pcmFormats == [[44_100, 2]])
        #expect(received.warnings.count == 2, "\(received.warnings)")
        for (warning, name) in zip(received.warnings, ["missing.flac", "notes.mp3"]) {
            #expect(warning.contains(name) && warning.hasSuffix("skipped"), "\(warning)")
            #expect(daemon.log.contains(name))
        }
        // Each FLAC's own title, as ffprobe reads it, is the segment's now playing.
        for (index, segment) in segments.enumerated() where segment.path.hasSuffix(".flac") {
            #expect(received.titles[index + 1] == [try Self.title(of: segment.path)], "segment \(index + 1)")
        }

        // Packets: the joins, each segment's table, and packets that hold the stated frames.
        #expect(received.tables.count == 4, "one part before the first join, then one per segment")
        for (index, segment) in segments.enumerated() {
            // A remainder not known at the start (FLAC's blocks may vary) is stated again before the last packet.
            let tables = received.tables[index + 1]
            try #require((1...2).contains(tables.count), "segment \(index + 1): \(tables)")
            let table = try #require(tables.last)
            #expect(tables.allSatisfy { $0["primingFrames"] as? Int == table["primingFrames"] as? Int }, "\(tables)")
            let priming = try #require(table["primingFrames"] as? Int)
            let valid = try #require(table["validFrames"] as? Int)
            let remainder = try #require(table["remainderFrames"] as? Int)
            #expect(valid == segment.frames, "segment \(index + 1)")
            #expect(priming + valid + remainder == received.packetFrames[index + 1], "segment \(index + 1)")
        }

        // PCM: the composition is the last frames the subscriber got, gapless, to the end of the stream.
        var expected: [Float] = []
        for segment in segments {
            let trimmed = try Self.ffmpegDecode(segment)
            #expect(trimmed.count == segment.frames * 2)
            expected += trimmed
        }
        try #require(received.pcm.count >= expected.count)
        let ours = Array(received.pcm.suffix(expected.count))
        var start = 0
        for (index, segment) in segments.enumerated() {
            let range = start..<start + segment.frames * 2
            start = range.upperBound
            if segment.path.hasSuffix(".flac") {
                let firstDifference = range.first { ours[$0] != expected[$0] }
                #expect(firstDifference == nil, "segment \(index + 1), lossless: differs at sample \(firstDifference ?? 0)")
            } else {
                let mpg123 = try Self.mpg123Decode(segment)
                let toolsDiffer = Self.largestDifference(mpg123, Array(expected[range]))
                let ourError = Self.largestDifference(Array(ours[range]), Array(expected[range]))
                #expect(toolsDiffer < 0.01, "mpg123 and ffmpeg agree on the range")
                #expect(ourError <= toolsDiffer, "segment \(index + 1): \(ourError) against ffmpeg, mpg123 \(toolsDiffer)")
            }
        }
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }

    /// A looped playlist none of whose items plays ends with a failure, rather than trying them for ever.
    @Test func aPlaylistOfNothingPlayableEndsWithAFailure() throws {
        let daemon = try DaemonHarness(config: """
            streams:
              - name: show
                socket: show.sock
                source: {playlist: [{file: missing.flac}, {file: config.yaml}], loop: true}
            """)
        // Its only stream failed: the daemon exits with 1, for systemd to restart it.
        #expect(try daemon.waitForExit() == 1, "\(daemon.log)")
        #expect(daemon.log.contains("no item of the playlist can be played"), "\(daemon.log)")
        #expect(daemon.log.contains("missing.flac") && daemon.log.contains("config.yaml holds no audio"))
    }

    /// Items that are no regular file (a folder, a named pipe, a device) are skipped with a warning: the folder's
    /// read once crashed the daemon, and the pipe's open waited for a writer for ever.
    @Test func aPlaylistOfAFolderAPipeAndADeviceIsSkipped() throws {
        let folder = try DaemonHarness.makeFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("album.flac"),
                                                withIntermediateDirectories: false)
        #expect(mkfifo(folder.appendingPathComponent("pipe.mp3").path, 0o600) == 0)
        let daemon = try DaemonHarness(config: """
            streams:
              - name: show
                socket: show.sock
                source: {playlist: [{file: album.flac}, {file: pipe.mp3}, {file: /dev/zero}], loop: true}
            """, folder: folder)
        #expect(try daemon.waitForExit() == 1, "\(daemon.log)")
        #expect(daemon.log.contains("no item of the playlist can be played"), "\(daemon.log)")
        for name in ["album.flac", "pipe.mp3", "/dev/zero"] {
            #expect(daemon.log.contains("\(name) is not a regular file"), "\(name): \(daemon.log)")
        }
    }

    /// A playlist file of thousands of entries none of which can be played (moved from another machine) fails
    /// within seconds: it was read again before each entry it skipped, for minutes of work on a shared core.
    @Test func aLongPlaylistOfMissingFilesFailsAtOnce() throws {
        let folder = try DaemonHarness.makeFolder()
        let entries = (0..<5000).map { "moved/album \($0 / 10)/track \($0 % 10).mp3\n" }.joined()
        try Data(entries.utf8).write(to: folder.appendingPathComponent("moved.m3u"))
        let daemon = try DaemonHarness(config: """
            streams:
              - name: show
                socket: show.sock
                source: {playlist: moved.m3u, loop: true}
            """, folder: folder)
        #expect(try daemon.waitForExit(timeout: 60) == 1, "\(daemon.log.suffix(2000))")
        #expect(daemon.log.contains("no item of the playlist can be played"))
    }

    /// Subscribes to everything and reads to the stream's end, splitting what came at each join; calls
    /// `onFirstPacket` at the first packet, and stops the daemon once `stopsWhen` holds of what came.
    static func receive(from daemon: DaemonHarness, onFirstPacket: () throws -> Void = {},
                        stopsWhen: (Received) -> Bool = { _ in false }) throws -> Received {
        try daemon.waitForSocket("show.sock")
        let client = WireClient(descriptor: try connect(daemon.path("show.sock")))
        let hello = Hello(kinds: [.packets, .pcm, .properties, .metadata], pcm: PCMRequest(encoding: .f32))
        try client.send(.hello, json: hello.json)
        var received = Received()
        var stopping = false
        while received.end == nil, let message = try client.receive() {
            if !stopping, stopsWhen(received) {
                stopping = true
                daemon.signal(SIGTERM)
            }
            switch message {
            case .packet(let packet):
                if received.packetTimestamps.isEmpty { try onFirstPacket() }
                received.packetTimestamps.append((packet.timestamp, packet.frames))
                received.packetFrames[received.packetFrames.count - 1] += packet.frames
            case .pcm(let pcm):
                received.pcmFormats.insert([pcm.sampleRate, pcm.channels])
                pcm.samples.withUnsafeBytes { received.pcm += $0.bindMemory(to: Float.self) }
            case .json(.event, let text):
                let event = DaemonStdinTests.object(text) ?? [:]
                switch (event["event"] as? String, event["reason"] as? String, event["id"] as? String) {
                case ("discontinuity", "newSegment", _):
                    received.tables.append([])
                    received.packetFrames.append(0)
                    received.titles.append([])
                case ("property", _, "pnfo"):
                    received.tables[received.tables.count - 1].append(event["value"] as? [String: Any] ?? [:])
                case ("warning", _, _): received.warnings.append(event["message"] as? String ?? "")
                case ("metadata", _, _):
                    if let title = (event["tags"] as? [String: Any])?["title"] as? String {
                        received.titles[received.titles.count - 1].append(title)
                    }
                case ("end", _, _): received.end = event
                default: break
                }
            default:
                break
            }
        }
        return received
    }

    /// A connection to a subscriber socket that gives up a read after 60 seconds, so that a daemon that hangs
    /// fails the test rather than holding it.
    static func connect(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix($0.count - 1)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// ffmpeg's decode of the segment's range, cut by `atrim`, as 32-bit floats.
    static func ffmpegDecode(_ segment: Segment) throws -> [Float] {
        let output = try FFmpegTool.run("ffmpeg", [
            "-v", "error", "-i", segment.path, "-af", "atrim=start_sample=\(segment.startSample):end_sample=\(segment.endSample)",
            "-f", "f32le", "-",
        ]).output
        return output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// mpg123's decode of the whole file (trimmed as its LAME tag says), cut to the segment's range.
    static func mpg123Decode(_ segment: Segment) throws -> [Float] {
        let output = try FFmpegTool.run("mpg123", ["-q", "-e", "f32", "-s", segment.path]).output
        let samples = output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return Array(samples[segment.startSample * 2..<segment.endSample * 2])
    }

    static func title(of path: String) throws -> String {
        let output = try FFmpegTool.run("ffprobe", [
            "-v", "error", "-show_entries", "format_tags=title", "-of", "default=noprint_wrappers=1:nokey=1", path,
        ]).output
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func largestDifference(_ first: [Float], _ second: [Float]) -> Float {
        guard first.count == second.count else { return .infinity }
        return zip(first, second).map { abs($0 - $1) }.max() ?? 0
    }
}
