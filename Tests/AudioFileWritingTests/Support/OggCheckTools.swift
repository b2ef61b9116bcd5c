import Foundation
import FixtureSupport

/// mutagen's reading of the files the Ogg and Vorbis comment writers write (python3 with mutagen, run through
/// `FFmpegTool.run`).
enum OggCheckTools {
    /// What mutagen reads from the Vorbis comments of the file at `path` (Ogg Opus, Ogg Vorbis, FLAC or Ogg
    /// FLAC): the vendor, each field as `[key, value]` in order (key in upper case), and each
    /// METADATA_BLOCK_PICTURE decoded by mutagen's own FLAC picture reader.
    static func mutagenComments(_ path: String) throws -> MutagenComments {
        let script = """
            import base64, json, sys, mutagen
            from mutagen.flac import Picture
            tags = mutagen.File(sys.argv[1]).tags
            fields = [[key.upper(), value] for key, value in tags]
            pictures = [Picture(base64.b64decode(value)) for key, value in fields if key == "METADATA_BLOCK_PICTURE"]
            print(json.dumps({"vendor": tags.vendor, "fields": [f for f in fields if f[0] != "METADATA_BLOCK_PICTURE"],
                              "pictures": [{"mime": p.mime, "type": p.type, "desc": p.desc, "data": p.data.hex()}
                                           for p in pictures]}))
            """
        let output = try FFmpegTool.run("python3", ["-c", script, path]).output
        return try JSONDecoder().decode(MutagenComments.self, from: output)
    }

    /// The frames mutagen says the file at `path` holds: FLAC's STREAMINFO total, else its length (from the last
    /// granule position, less Opus' pre-skip) at the stream's rate; -1 when it prints no number.
    static func mutagenFrames(_ path: String) throws -> Int64 {
        let script = """
            import sys, mutagen
            info = mutagen.File(sys.argv[1]).info
            total = getattr(info, "total_samples", None)
            print(total if total is not None else round(info.length * getattr(info, "sample_rate", 48000)))
            """
        let text = String(decoding: try FFmpegTool.run("python3", ["-c", script, path]).output, as: UTF8.self)
        return Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    struct MutagenComments: Decodable {
        struct Picture: Decodable, Equatable {
            let mime: String
            let type: Int
            let desc: String
            let data: String
        }

        let vendor: String
        let fields: [[String]]
        let pictures: [Picture]
    }
}
