import Foundation
import Synchronization

/// ffmpeg and ffprobe, the independent readers that check the files we write: run to their end, their output
/// kept in memory (they print little, and PCM is read whole).
public enum FFmpegTool {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `tool` (found on the PATH) with `arguments`.
    /// - Returns: its standard output and standard error.
    /// - Throws: `Failure` when the tool is missing or exits with a failure.
    public static func run(_ tool: String, _ arguments: [String]) throws -> (output: Data, errors: String) {
        let result = try runToEnd(tool, arguments)
        guard result.status == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(result.errors)")
        }
        return (result.output, result.errors)
    }

    /// Runs `tool` (found on the PATH) with `arguments`, whatever its exit status.
    /// - Returns: its exit status, standard output and standard error.
    /// - Throws: `Failure` when the tool is missing.
    public static func runToEnd(_ tool: String, _ arguments: [String]) throws
        -> (status: Int32, output: Data, errors: String) {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = folders.map({ "\($0)/\(tool)" }).first(where: FileManager.default.isExecutableFile(atPath:))
        else { throw Failure(description: "\(tool) is not installed: `make test` installs it") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes as they fill: a decode's PCM is larger than a pipe holds.
        let errorData = Mutex(Data())
        let errorReader = Thread { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        errorReader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errorReader.isExecuting || !errorReader.isFinished { usleep(1000) }
        return (process.terminationStatus, data, String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }

    /// What `ffprobe -v warning` says of `path`: empty for a file it reads without a complaint.
    public static func warnings(_ path: String) throws -> String {
        let result = try run("ffprobe", ["-v", "warning", "-i", path])
        return result.errors + String(decoding: result.output, as: UTF8.self)
    }

    /// ffmpeg's decode of `path` as interleaved 32-bit float samples, with the gapless trims it honours.
    public static func decode(_ path: String) throws -> [Float] {
        let data = try run("ffmpeg", ["-v", "error", "-i", path, "-f", "f32le", "-"]).output
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The channel count ffprobe reads in `path`'s audio stream.
    public static func channels(_ path: String) throws -> Int {
        try streamValue("channels", of: path)
    }

    /// The sample rate ffprobe reads in `path`'s audio stream.
    public static func sampleRate(_ path: String) throws -> Int {
        try streamValue("sample_rate", of: path)
    }

    /// The duration ffprobe reads from `path`'s headers, in seconds.
    public static func duration(_ path: String) throws -> Double {
        let text = String(decoding: try run("ffprobe", [
            "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path,
        ]).output, as: UTF8.self)
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The frames of the first audio packet of `path`, from its duration on the stream's time base as ffprobe
    /// demuxes it.
    public static func firstPacketFrames(_ path: String) throws -> Int {
        let text = String(decoding: try run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-read_intervals", "%+#1", "-show_entries", "packet=duration",
            "-of", "csv=p=0", path,
        ]).output, as: UTF8.self)
        let base = try streamEntry("time_base", of: path).split(separator: "/").compactMap { Int($0) }
        // The line may go on with empty fields (side data): the duration is its first.
        let line = text.split(whereSeparator: \.isNewline).first ?? ""
        guard let duration = line.split(separator: ",").first.flatMap({ Int($0) }), base.count == 2
        else { return 0 }
        return duration * (try sampleRate(path)) * base[0] / base[1]
    }

    /// The MD5 of each audio packet's data, as ffprobe demuxes `path`.
    public static func packetHashes(_ path: String) throws -> [String] {
        String(decoding: try run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_data_hash", "MD5", "-show_entries", "packet=data_hash",
            "-of", "csv=p=0", path,
        ]).output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// One `-show_entries stream=ENTRY` value of `path`'s audio stream, as ffprobe prints it.
    public static func streamEntry(_ entry: String, of path: String) throws -> String {
        String(decoding: try run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=\(entry)", "-of",
            "default=noprint_wrappers=1:nokey=1", path,
        ]).output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func streamValue(_ entry: String, of path: String) throws -> Int {
        Int(try streamEntry(entry, of: path)) ?? 0
    }
}
