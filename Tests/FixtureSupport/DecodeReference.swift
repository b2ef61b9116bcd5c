import Foundation
import Testing

/// What ffmpeg decodes a fixture to, as make_decode_references.py recorded it in expected/decode/.
public struct DecodeReference: CustomTestStringConvertible, Sendable {
    public let name: String
    public let file: URL
    public let frames: Int
    public let s16Md5: String
    public let f32Md5: String
    /// The MD5 FLAC's encoder stored of the samples at their own bit depth, and that depth.
    public let streamInfo: (md5: String, bitsPerSample: Int)?
    /// libswresample's conversion of the reference PCM to another rate and channel count.
    public let resampled: Resampled

    /// PCM resampled by ffmpeg: its rate, channels, frames and the MD5s of its s16 and f32 samples.
    public struct Resampled: Sendable {
        public let sampleRate: Int
        public let channels: Int
        public let frames: Int
        public let s16Md5: String
        public let f32Md5: String
    }

    public var testDescription: String { name }
    public var bytes: [UInt8] { [UInt8](try! Data(contentsOf: file)) }

    /// Every recorded reference of a fixture read as a stream.
    public static let all = references(in: Fixtures.expected.appendingPathComponent("decode"))
    /// References of fixtures only a file can give, read out of order (an MP4 whose moov follows its mdat).
    public static let readAsFiles = references(
        in: Fixtures.expected.appendingPathComponent("decode").appendingPathComponent("files"))

    private static func references(in folder: URL) -> [DecodeReference] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }.map { url in
            let facts = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            let file = Fixtures.directory.appendingPathComponent(facts["file"] as! String)
            let streamInfo = (facts["streamInfoMd5"] as? String).map { ($0, facts["bitsPerSample"] as! Int) }
            let resampled = facts["resampled"] as! [String: Any]
            return DecodeReference(
                name: file.lastPathComponent, file: file, frames: facts["frames"] as! Int,
                s16Md5: facts["s16Md5"] as! String, f32Md5: facts["f32Md5"] as! String, streamInfo: streamInfo,
                resampled: Resampled(
                    sampleRate: resampled["sampleRate"] as! Int, channels: resampled["channels"] as! Int,
                    frames: resampled["frames"] as! Int, s16Md5: resampled["s16Md5"] as! String,
                    f32Md5: resampled["f32Md5"] as! String))
        }
    }
}
