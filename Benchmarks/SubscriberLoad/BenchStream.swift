/// One stream of the daemon a run starts: its name, which is also its socket's file name and its HTTP mount, and
/// where audiostreamd reads it from.
struct BenchStream {
    enum Source {
        /// The daemon's standard input, which the generator feeds through a pipe.
        case standardInput
        /// A named pipe the generator feeds, read unpaced as the file it looks like.
        case namedPipe(path: String)
    }

    let name: String
    let source: Source
    /// The stream's `hls:` settings as YAML, when it is served as HLS.
    var hls: String?

    /// The stream's entry in config.yaml's `streams:` list, its socket in `folder`.
    func configEntry(folder: String, writeInterval: Double?) -> String {
        let sourceLines = switch source {
        case .standardInput: "stdin"
        case .namedPipe(let path): "file:\(path)\n    pace: none"
        }
        let interval = writeInterval.map { "\n    writeInterval: \($0)" } ?? ""
        let hlsLine = hls.map { "\n    hls: \($0)" } ?? ""
        return """
          - name: \(name)
            source: \(sourceLines)
            socket: \(socket(in: folder))\(interval)\(hlsLine)

        """
    }

    func socket(in folder: String) -> String {
        folder + "/\(name).sock"
    }
}
