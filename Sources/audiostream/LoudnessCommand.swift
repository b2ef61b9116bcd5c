import ArgumentParser
import AudioLoudness
import AudioStreamProtocol
import Foundation

/// `audiostream loudness FILE… [--album] [--true-peak] [--write-tags] [--json]`: ReplayGain 2.0 of files, as
/// loudgain and rsgain compute it, and written into their tags without touching the audio.
struct LoudnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loudness",
        abstract: """
            Measure files' loudness (EBU R128) and their ReplayGain 2.0 (to -18 LUFS): track gain and peak, and \
            with --album the album's; with --write-tags, written into each file's own tags, its audio untouched.
            """,
        discussion: """
            Tags: ID3v2 TXXX:REPLAYGAIN_* (MP3), Vorbis comments REPLAYGAIN_* (FLAC, Vorbis), R128_TRACK_GAIN and \
            R128_ALBUM_GAIN (Opus, Q7.8 relative to -23 LUFS, the header's output gain left as it is), and iTunes \
            ----:com.apple.iTunes:replaygain_* (MP4). A file that cannot be decoded or tagged is reported and \
            skipped; the others are done, and the exit status is 1.
            """)

    @Argument(help: "The files to measure.")
    var files: [String]

    @Flag(help: "Measure the files as one album too: the album's gain and peak, and its tags in each file.")
    var album = false

    @Flag(help: "Peaks are true peaks (4× oversampled, as loudgain's), not the largest sample.")
    var truePeak = false

    @Flag(help: "Write the ReplayGain tags into each file, replacing it.")
    var writeTags = false

    @Flag(help: "Print a JSON object a line, one per file and one for the album, instead of a table.")
    var json = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file") }
    }

    func run() throws {
        let out = BufferedOutput()
        if !json { out.line(Self.row("LUFS", "LU", "peak", "gain", "file")) }
        var failed = false
        var tracks: [TrackLoudness] = []
        for (index, file) in files.enumerated() {
            if files.count > 1 { Progress.note(file, index: index, count: files.count) }
            do {
                let track = try TrackLoudness(file: file, truePeak: truePeak)
                tracks.append(track)
                out.line(json ? Self.json(track).text : Self.row(track.integrated, track.range, track.peak, file))
            } catch {
                Diagnostics.warn("\(error)")
                failed = true
            }
            try out.flush()
        }
        if files.count > 1 { Progress.done() }
        let album = album && !tracks.isEmpty ? AlbumLoudness(tracks) : nil
        if let album {
            out.line(json ? Self.json(album).text : Self.row(album.integrated, album.range, album.peak, "(album)"))
        }
        try out.flush()
        if writeTags {
            for track in tracks {
                do {
                    try TagsCommand.write(try ReplayGainTags.edits(for: track, album: album), of: track.file,
                                          to: track.file)
                } catch {
                    Diagnostics.warn("tags not written: \(error)")
                    failed = true
                }
            }
        }
        if failed { throw ExitCode.failure }
    }

    private static func row(_ loudness: Double, _ range: Double, _ peak: Double, _ name: String) -> String {
        let gain = loudness.isFinite ? String(format: "%+.2f dB", ReplayGain.gain(loudness: loudness)) : "-"
        return row(String(format: "%.2f", loudness), String(format: "%.2f", range), String(format: "%.6f", peak),
                   gain, name)
    }

    private static func row(_ loudness: String, _ range: String, _ peak: String, _ gain: String, _ name: String)
        -> String {
        func padded(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        return "\(padded(loudness, 8))  \(padded(range, 6))  \(padded(peak, 8))  \(padded(gain, 10))  \(name)"
    }

    /// A file's or the album's figures: LUFS, LU and dB to the hundredth, a peak as a factor of full scale.
    private static func json(_ figures: (integrated: Double, range: Double, peak: Double), name: (String, JSON))
        -> JSON {
        let gain = figures.integrated.isFinite ? ReplayGain.gain(loudness: figures.integrated) : .nan
        return .object([
            name, ("integrated", .level(figures.integrated)), ("range", .level(figures.range)),
            ("peak", .double((figures.peak * 1e6).rounded() / 1e6)), ("gain", .level(gain)),
        ])
    }

    private static func json(_ track: TrackLoudness) -> JSON {
        json((track.integrated, track.range, track.peak), name: ("file", .string(track.file)))
    }

    private static func json(_ album: AlbumLoudness) -> JSON {
        json((album.integrated, album.range, album.peak), name: ("album", .bool(true)))
    }
}

/// Which file is being measured, on standard error: a line each, or one line rewritten on a terminal.
private enum Progress {
    static let isTerminal = isatty(STDERR_FILENO) == 1

    static func note(_ file: String, index: Int, count: Int) {
        let text = "[\(index + 1)/\(count)] \(file)"
        FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K\(text)" : "\(text)\n").utf8))
    }

    static func done() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
