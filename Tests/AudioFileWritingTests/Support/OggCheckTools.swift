import Foundation

/// The independent tools the Ogg and Vorbis comment writers' files are checked with (ffmpeg, ffprobe, opusinfo,
/// ogginfo, python3 with mutagen), run to their end with their output kept in files so a full pipe never blocks
/// them. A missing tool is a failure, not a skip: `env` exits 127.
enum OggCheckTools {
    struct Run {
        let status: Int32
        let output: Data
        let errors: String

        var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `tool` (found on the PATH) with `arguments`.
    static func run(_ tool: String, _ arguments: [String]) throws -> Run {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputFile = folder.appendingPathComponent("out"), errorsFile = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: try Data(contentsOf: outputFile),
                   errors: try String(contentsOf: errorsFile, encoding: .utf8))
    }

    /// A new empty folder for a test's files; the caller removes it.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ogg-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

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
        let run = try run("python3", ["-c", script, path])
        guard run.status == 0 else { throw ToolFailure(description: "mutagen: \(run.errors)") }
        return try JSONDecoder().decode(MutagenComments.self, from: run.output)
    }

    /// The frames mutagen says the file at `path` holds: FLAC's STREAMINFO total, else its length (from the last
    /// granule position, less Opus' pre-skip) at the stream's rate.
    static func mutagenFrames(_ path: String) throws -> Int64 {
        let script = """
            import sys, mutagen
            info = mutagen.File(sys.argv[1]).info
            total = getattr(info, "total_samples", None)
            print(total if total is not None else round(info.length * getattr(info, "sample_rate", 48000)))
            """
        let run = try run("python3", ["-c", script, path])
        guard run.status == 0, let frames = Int64(run.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ToolFailure(description: "mutagen: \(run.errors)")
        }
        return frames
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

    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
    }
}
