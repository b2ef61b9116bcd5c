import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// Runs the independent tools the writers' tests check files with.
enum LosslessTools {
    /// Runs `tool` (found on the PATH) to its end.
    /// - Returns: its exit status, standard output and standard error.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: [UInt8], errors: String) {
        let result = try FFmpegTool.runToEnd(tool, arguments)
        return (result.status, [UInt8](result.output), result.errors)
    }

    /// What `ffprobe -v warning` says of `file`: nothing for a file it reads cleanly.
    static func ffprobeWarnings(_ file: URL) throws -> String {
        try FFmpegTool.warnings(file.path)
    }

    /// The samples ffmpeg decodes from `file`, in the raw format `sampleFormat` (`s32le`, `f32le`, `f64le`).
    static func decode(_ file: URL, as sampleFormat: String) throws -> [UInt8] {
        let result = try run("ffmpeg", ["-v", "error", "-i", file.path, "-f", sampleFormat, "-"])
        #expect(result.status == 0 && result.errors.isEmpty, "ffmpeg: \(result.errors)")
        return result.output
    }

    /// One `ffprobe -show_entries` value per line (`stream=channel_layout`, `format_tags=title` …).
    static func probe(_ file: URL, _ entries: String, select: String = "a:0") throws -> [String] {
        let result = try run("ffprobe", ["-v", "error", "-select_streams", select, "-show_entries", entries,
                                         "-of", "default=noprint_wrappers=1:nokey=1", file.path])
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// Writes `packets` of `track` to a new file at `url` with the container its extension names.
func writeFile(_ url: URL, track: TrackFormat, tags: NormalizedTags = NormalizedTags(),
               packets: ArraySlice<(bytes: [UInt8], frames: Int64)>, options: WriterOptions = WriterOptions()) throws {
    var target = try FileTarget(creating: url.path)
    defer { target.close() }
    var writer = try #require(Container(fileName: url.path))
        .makeWriter(track: track, tags: tags, leadingTrim: 0, options: options, to: &target)
    for packet in packets {
        try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &target) }
    }
    try writer.finish(trailingTrim: 0, to: &target)
    try target.flush()
}
