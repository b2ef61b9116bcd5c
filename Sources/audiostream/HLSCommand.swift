import ArgumentParser
import AudioFileStream
import AudioHLS

/// `audiostream hls INPUT -o FOLDER`: the input as an HLS video-on-demand playlist of its own codec.
struct HLSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hls",
        abstract: "Cut the input into an HLS video-on-demand playlist of its own codec, without re-encoding.",
        discussion: """
            FOLDER receives index.m3u8, its segments and, for fmp4, its initialization sections; any web server \
            can serve it. Segments end on packet boundaries and last at most --segment seconds; each one's \
            #EXTINF is its exact frames over the rate. packed segments (AAC in ADTS, MP3, AC-3, E-AC-3) carry \
            the encoder's priming as audio; fmp4 (AAC, ALAC, Opus, FLAC) leaves it out with an edit.
            """)

    @OptionGroup var input: InputOptions

    @Option(name: .short, help: ArgumentHelp("The folder to write.", valueName: "FOLDER"))
    var output: String

    @Option(help: ArgumentHelp("Target seconds of a segment.", valueName: "SECONDS"))
    var segment: Double = 6

    @Option(help: ArgumentHelp("packed or fmp4 (default: packed where the codec allows, else fmp4).",
                               valueName: "KIND"))
    var container: HLSContainer?

    /// The playlist's name in the folder.
    static let playlistName = "index.m3u8"

    private var settings: HLSSettings {
        HLSSettings(segment: segment, part: 0, window: .infinity, container: container)
    }

    func validate() throws {
        if let problem = settings.problems.first { throw ValidationError("--segment: \(problem)") }
    }

    func run() throws {
        let folder = HLSFolder(path: output)
        let segmenter = HLSSegmenter(settings: settings, publish: folder.take)
        Interrupt.install()
        try input.parse(writing: output, segmenter.handle)
        try segmenter.finish()
        let playlist = HLSPlaylistWriter.media(segmenter.list, HLSPlaylistWriter.Request(isOnDemand: true))
        try folder.write(Array(playlist.utf8), named: Self.playlistName)
    }
}

extension HLSContainer: ExpressibleByArgument {}
