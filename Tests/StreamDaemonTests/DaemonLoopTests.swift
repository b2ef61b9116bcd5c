import AudioStreamProtocol
import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// Looped files end to end: each pass plays the file again from its start, packets and timestamps going on
/// from the last pass, whether the file's headers say where its packets lie (MP4, CAF) or only come first
/// (FLAC, WAVE, AIFF), as for a self-synchronising MP3. Expected packets are ffprobe's (recorded by the fixture
/// scripts), in the file; a pass is at the stream offsets the file's size on from the one before.
@Suite struct DaemonLoopTests {
    /// Files of packets: M4A with its moov first, fragmented MP4, AAC in CAF with a packet table, FLAC, and an
    /// MP3 beginning with a Xing frame.
    static let packetFiles = [
        Fixtures.mp4.first { $0.name == "aac-lc-faststart.m4a" }!, Fixtures.mp4.first { $0.name == "aac-fragmented.mp4" }!,
        Fixtures.caf.first { $0.name == "caf-aac-44k-stereo.caf" }!,
        Fixtures.flac.first { $0.name == "flac-44k-stereo.flac" }!, Fixtures.named("l3-vbr-v2.mp3"),
    ]
    /// Files of PCM frames, whose packets the daemon sends in runs of frames.
    static let pcmFiles = Fixtures.caf.filter { $0.name == "caf-s16le-44k-stereo.caf" }
        + Fixtures.pcm.filter { ["wav-s16-stereo.wav", "aiff-s16-stereo.aiff"].contains($0.name) }

    @Test(arguments: packetFiles)
    func aLoopedFileSendsEveryPassItsPackets(fixture: Fixtures.Fixture) throws {
        let passes = try Self.loop(fixture)
        let expected = fixture.expectedPackets.map { $0.offset..<$0.offset + Int64($0.size) }
        for (pass, packets) in passes.enumerated() { #expect(packets == expected, "pass \(pass + 1)") }
    }

    @Test(arguments: pcmFiles)
    func aLoopedPCMFileSendsEveryPassItsFrames(fixture: Fixtures.Fixture) throws {
        let passes = try Self.loop(fixture)
        let expected = Self.joined(fixture.expectedPackets.map { $0.offset..<$0.offset + Int64($0.size) })
        for (pass, packets) in passes.enumerated() { #expect(Self.joined(packets) == expected, "pass \(pass + 1)") }
    }

    /// Loops `fixture` at 4 times real time until the third pass after the one the subscriber joined in starts,
    /// and checks what every pass shares: the stream goes on, each packet holds the file's bytes where its offset
    /// says, timestamps run on without a gap, and the only discontinuities are the passes' starts, where nothing
    /// is skipped.
    /// - Returns: the byte ranges in the file of the packets of the two whole passes after the joining one.
    static func loop(_ fixture: Fixtures.Fixture) throws -> [[Range<Int64>]] {
        let file = fixture.bytes
        let fileSize = Int64(file.count)
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: music
                source: file:\(fixture.file.path)
                pace: 4
                loop: true
                socket: music.sock
            """)
        try daemon.waitForSocket("music.sock")
        let client = try WireClient(path: daemon.path("music.sock"))
        try client.send(.hello, json: Hello(kinds: [.packets]).json)
        var packets: [PacketMessage] = []
        var events: [[String: Any]] = []
        receiving: while let message = try client.receive() {
            switch message {
            case .packet(let packet):
                packets.append(packet)
                if packet.offset / fileSize == packets[0].offset / fileSize + 3 { break receiving }
            case .json(.event, let text):
                events.append(DaemonStdinTests.object(text) ?? [:])
            default:
                break
            }
        }
        #expect(try daemon.streamStatus("music")?["state"] as? String == "running", "\(events.last ?? [:])")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")

        for packet in packets {
            let position = Int(packet.offset % fileSize)
            #expect(file[position...].starts(with: packet.bytes), "the bytes of the packet at \(packet.offset)")
        }
        for (previous, packet) in zip(packets, packets.dropFirst()) {
            #expect(packet.timestamp == previous.timestamp + Int64(previous.frames), "at \(packet.offset)")
        }
        let gaps = events.filter { $0["event"] as? String == "discontinuity" }
        #expect(gaps.count >= 2)
        for gap in gaps {
            #expect(gap["reason"] as? String == "input" && gap["skippedBytes"] as? Int == 0
                    && (gap["offset"] as? Int ?? -1) % file.count == 0, "\(gap)")
        }
        let joiningPass = (packets.first?.offset ?? 0) / fileSize
        return [joiningPass + 1, joiningPass + 2].map { pass in
            packets.filter { $0.offset / fileSize == pass }.map { packet in
                let start = packet.offset % fileSize
                return start..<start + Int64(packet.bytes.count)
            }
        }
    }

    /// The ranges with those that touch joined: what a run of packets covers, however it was cut.
    static func joined(_ ranges: [Range<Int64>]) -> [Range<Int64>] {
        ranges.reduce(into: []) { joined, range in
            if let last = joined.last, last.upperBound == range.lowerBound {
                joined[joined.count - 1] = last.lowerBound..<range.upperBound
            } else {
                joined.append(range)
            }
        }
    }
}
