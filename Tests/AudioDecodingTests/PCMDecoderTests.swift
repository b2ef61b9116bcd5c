import AudioDecoding
import FixtureSupport
import Foundation
import Testing
@testable import AudioFileStream

/// The samples of PCM containers against ffmpeg reading the same bytes as raw PCM of that layout: the fixture
/// script recorded the MD5 of `ffmpeg -f LAYOUT -i pcm-raw/LAYOUT.raw -f s16le` (and `f32le`) for every integer
/// width and byte order, signed and unsigned 8-bit, 32 and 64-bit floats, and G.711 µ-law and A-law.
@Suite struct PCMDecoderTests {
    /// One raw layout and ffmpeg's decode of it.
    struct Layout: CustomTestStringConvertible, Sendable {
        let name: String
        let format: AudioStreamBasicDescription
        let bytes: [UInt8]
        let s16Md5: String
        let f32Md5: String

        var testDescription: String { name }
    }

    static let layouts: [Layout] = {
        let folder = Fixtures.expected.appendingPathComponent("decode/pcm")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.sorted { $0.path < $1.path }.map { url in
            let facts = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            let number = { (key: String) in UInt32(facts[key] as! Int) }
            let formatID = FourCharCode(stringLiteral: facts["formatID"] as! String)
            let format = formatID == AudioFormatID.linearPCM
                ? AudioStreamBasicDescription.linearPCM(
                    sampleRate: 8000, channels: number("channels"), bitsPerChannel: number("bitsPerChannel"),
                    bytesPerSample: number("bytesPerSample"), isFloat: facts["isFloat"] as! Bool,
                    isBigEndian: facts["isBigEndian"] as! Bool, isSigned: facts["isSigned"] as! Bool)
                : AudioStreamBasicDescription.interleaved(formatID, sampleRate: 8000, channels: number("channels"))
            let bytes = [UInt8](try! Data(contentsOf: Fixtures.directory.appendingPathComponent(facts["file"] as! String)))
            return Layout(name: url.deletingPathExtension().lastPathComponent, format: format, bytes: bytes,
                          s16Md5: facts["s16Md5"] as! String, f32Md5: facts["f32Md5"] as! String)
        }
    }()

    @Test func everyLayoutIsThere() {
        #expect(Self.layouts.count == 14)
    }

    @Test(arguments: layouts)
    func samplesConvertAsFFmpegConvertsThem(layout: Layout) throws {
        #expect(try md5(convert(layout, to: .int16).pcm) == layout.s16Md5)
        #expect(try md5(convert(layout, to: .float32).pcm) == layout.f32Md5)
    }

    @Test func packetTableInfoTrimsPrimingAndRemainder() {
        let layout = Self.layouts.first { $0.name == "s16le" }!
        let whole = convert(layout, to: .int16)
        let trimmed = convert(layout, to: .int16, table: PacketTableInfo(validFrames: 900, primingFrames: 40,
                                                                          remainderFrames: 60))
        #expect(trimmed.pcm == Array(whole.pcm[40 * 4..<940 * 4]))
    }

    @Test func otherFormatsAreReportedUnsupported() {
        let layout = Self.layouts[0]
        var format = layout.format
        format.formatID = "ima4"
        let decoded = convert(Layout(name: "ima4", format: format, bytes: layout.bytes, s16Md5: "", f32Md5: ""),
                              to: .int16)
        #expect(decoded.unsupportedFormats == ["ima4"])
        #expect(decoded.pcm.isEmpty)
    }

    /// Feeds the layout's samples to a PCMDecoder as a reader would: its DataFormat, then batches of whole
    /// frames of varying sizes.
    private func convert(_ layout: Layout, to sampleFormat: PCMSampleFormat, table: PacketTableInfo? = nil)
        -> Decoded {
        var decoded = Decoded()
        let decoder = PCMDecoder(sampleFormat: sampleFormat) { decoded.record($0) }
        decoder.consume(.property(.dataFormat, .format(layout.format)))
        if let table { decoder.consume(.property(.packetTableInfo, .packetTableInfo(table))) }
        let frameSize = Int(layout.format.bytesPerFrame)
        var start = 0
        var frames = 1
        layout.bytes.withUnsafeBytes { bytes in
            while start < bytes.count {
                let end = min(start + frames * frameSize, bytes.count)
                decoder.consume(.packets(PacketBatch(
                    bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), format: layout.format,
                    descriptions: nil, streamOffset: Int64(start), firstPacketIndex: Int64(start / frameSize),
                    followsDiscontinuity: false, isAssembled: false)))
                start = end
                frames = frames * 3 % 251
            }
        }
        decoder.finish()
        return decoded
    }
}
