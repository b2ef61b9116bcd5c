import AudioDecoding
import FixtureSupport
import Testing
@testable import AudioFileStream

/// A discontinuity in an Ogg stream (where a cut file cannot be decoded on its own: its headers are at the start)
/// resets the codec: after it, the output is what a fresh decoder given the stream's format and cookie makes of
/// the packets that follow.
@Suite struct CodecResetTests {
    /// The parser's events for a whole file, with copies of the packets so they can be fed again.
    enum Recorded {
        case property(AudioFileStreamPropertyID, AudioFileStreamPropertyValue)
        case packets(bytes: [UInt8], descriptions: [AudioStreamPacketDescription], format: AudioStreamBasicDescription)

        static func events(of bytes: [UInt8]) throws -> [Recorded] {
            var events: [Recorded] = []
            let stream = try AudioFileStream { event in
                switch event {
                case .property(let id, let value): events.append(.property(id, value))
                case .packets(let batch):
                    events.append(.packets(bytes: Array(batch.bytes), descriptions: Array(batch.descriptions ?? .init(
                        start: nil, count: 0)), format: batch.format))
                case .metadata, .discontinuity, .warning: break
                }
            }
            try FixtureSupport.feed(bytes, to: stream)
            return events
        }

        func feed(to decoder: any PacketDecoder) {
            switch self {
            case .property(let id, let value): decoder.consume(.property(id, value))
            case .packets(let bytes, let descriptions, let format):
                bytes.withUnsafeBytes { bytes in
                    descriptions.withUnsafeBufferPointer { descriptions in
                        decoder.consume(.packets(PacketBatch(
                            bytes: bytes, format: format, descriptions: descriptions, streamOffset: 0,
                            firstPacketIndex: 0, followsDiscontinuity: false, isAssembled: false)))
                    }
                }
            }
        }

        var isPackets: Bool { if case .packets = self { true } else { false } }
        /// Trimming depends on positions in the stream, which a fresh decoder does not have: left out of both.
        var isPacketTable: Bool { if case .property(.packetTableInfo, _) = self { true } else { false } }
    }

    @Test(arguments: ["ogg-opus-64k-stereo.opus", "ogg-vorbis-q0-44k-stereo.ogg", "ogg-flac-44k-stereo.oga"])
    func aDiscontinuityResetsTheCodec(name: String) throws {
        let events = try Recorded.events(of: DecodeReference.all.first { $0.name == name }!.bytes)
            .filter { !$0.isPacketTable }
        let batches = events.indices.filter { events[$0].isPackets }
        let cut = batches[batches.count / 2]
        let configuration = events[..<batches[0]]

        var cutStream = Decoded()
        let decoder = CodecDecoder(sampleFormat: .int16) { cutStream.record($0) }
        for event in events[..<cut] { event.feed(to: decoder) }
        decoder.consume(.discontinuity(Discontinuity(offset: 0, skippedBytes: 0, reason: .input)))
        let beforeCut = cutStream.pcm.count
        for event in events[cut...] { event.feed(to: decoder) }
        decoder.finish()

        var fresh = Decoded()
        let freshDecoder = CodecDecoder(sampleFormat: .int16) { fresh.record($0) }
        for event in configuration + events[cut...] { event.feed(to: freshDecoder) }
        freshDecoder.finish()
        #expect(beforeCut > 0 && !fresh.pcm.isEmpty)
        #expect(try md5(Array(cutStream.pcm[beforeCut...])) == md5(fresh.pcm))
    }
}
