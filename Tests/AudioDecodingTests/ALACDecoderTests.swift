import AudioDecoding
import FixtureSupport
import Foundation
import Testing
@testable import AudioFileStream

/// ALAC against ffmpeg, until a reader of its containers lands: the packets of ffmpeg's ALAC CAF file, cut as its
/// packet table says, with its magic cookie as a reader gives it (behind ffmpeg's `frma` atom, or Apple's bare
/// ALACSpecificConfig), decode to what `ffmpeg -f s16le` and `-f f32le` decode the file to.
@Suite struct ALACDecoderTests {
    static var expected: [String: Any] { try! JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.expected
        .appendingPathComponent("decode/alac/alac-44k-stereo.json"))) as! [String: Any] }

    @Test(arguments: [PCMSampleFormat.int16, .float32], ["as written", "bare configuration"])
    func packetsDecodeAsFFmpegDecodesTheFile(sampleFormat: PCMSampleFormat, cookieForm: String) throws {
        let expected = Self.expected
        let file = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent(expected["file"] as! String)))
        let written = hexBytes(expected["magicCookie"] as! String)
        // The configuration is the last 24 bytes, whatever atoms come before it.
        let cookie = cookieForm == "as written" ? written : Array(written.suffix(24))
        var start = expected["packetsOffset"] as! Int
        let descriptions = (expected["packetSizes"] as! [Int]).map { size in
            defer { start += size }
            return AudioStreamPacketDescription(startOffset: Int64(start), variableFramesInPacket: 0,
                                                dataByteSize: UInt32(size))
        }
        let format = AudioStreamBasicDescription(sampleRate: 44100, formatID: AudioFormatID.appleLossless,
                                                 framesPerPacket: 4096, channelsPerFrame: 2)
        var decoded = Decoded()
        let decoder = StreamDecoder(sampleFormat: sampleFormat) { decoded.record($0) }
        decoder.consume(.property(.dataFormat, .format(format)))
        decoder.consume(.property(.magicCookieData, .data(cookie)))
        file.withUnsafeBytes { bytes in
            descriptions.withUnsafeBufferPointer { descriptions in
                decoder.consume(.packets(PacketBatch(
                    bytes: bytes, format: format, descriptions: descriptions, streamOffset: 0, firstPacketIndex: 0,
                    followsDiscontinuity: false, isAssembled: false)))
            }
        }
        decoder.finish()
        #expect(decoded.errors.isEmpty && decoded.unsupportedFormats.isEmpty)
        #expect(decoded.frames == expected["frames"] as! Int)
        let key = sampleFormat == .int16 ? "s16Md5" : "f32Md5"
        #expect(try md5(decoded.pcm) == expected[key] as? String)
    }

    private func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
