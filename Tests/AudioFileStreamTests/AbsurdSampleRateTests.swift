import AudioFileStream
import FixtureSupport
import Foundation
import Testing

/// A container stating a sample rate no audio has (1e300 Hz in CAF's and AIFF's floats, 4 GHz in WAVE's 32 bits)
/// is refused with the container's error, where it used to be announced and trap whoever counted frames by it.
@Suite struct AbsurdSampleRateTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let fixture: String
        /// The bytes of the rate field within the format chunk, from the chunk's id.
        let rateAt: Int
        let rate: [UInt8]
        var testDescription: String { fixture }
    }

    static let cases = [
        // CAF desc: the chunk's id and 64-bit size, then the rate as a big-endian Float64.
        Case(fixture: "caf/caf-s16le-44k-stereo.caf", rateAt: 12, rate: withUnsafeBytes(of: (1e300).bitPattern.bigEndian, Array.init)),
        // AIFF COMM: id, size, channels, frames, bits, then the rate as an 80-bit float (2^1000).
        Case(fixture: "pcm/aiff-s16-stereo.aiff", rateAt: 16, rate: [0x43, 0xE7, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        // WAVE fmt: id, size, format tag, channels, then the rate as a little-endian UInt32.
        Case(fixture: "pcm/wav-s16-stereo.wav", rateAt: 12, rate: [0, 0x28, 0x6B, 0xEE]),
    ]

    @Test(arguments: cases)
    func aRateNoAudioHasIsRefused(_ test: Case) throws {
        var bytes = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent(test.fixture)))
        let chunkID = ["caf": "desc", "aiff": "COMM", "wav": "fmt "][String(test.fixture.split(separator: ".").last!)]!
        let chunk = try #require(bytes.indices.first { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual(chunkID.utf8) })
        bytes.replaceSubrange(chunk + test.rateAt..<chunk + test.rateAt + test.rate.count, with: test.rate)
        var formats: [AudioStreamBasicDescription] = []
        var packets = 0
        let stream = try AudioFileStream(fileTypeHint: nil) { event in
            switch event {
            case .property(.dataFormat, .format(let format)): formats.append(format)
            case .packets(let batch): packets += batch.bytes.count
            default: break
            }
        }
        #expect(throws: AudioFileStreamFailure.self) {
            try stream.parse(bytes)
            try stream.finish()
        }
        #expect(formats.isEmpty && packets == 0, "\(formats)")
    }
}
