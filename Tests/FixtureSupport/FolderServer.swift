import Foundation

/// A folder served over HTTP on 127.0.0.1 by Python's `http.server`, a plain static server as any web server is:
/// for clients that read HLS only over HTTP (GStreamer's `hlsdemux2`). Stopped by `stop`.
public final class FolderServer {
    private let process = Process()
    /// The port it listens on, which the system chose.
    public let port: Int

    /// Serves `folder`.
    /// - Throws: `FFmpegTool.Failure` when python3 is missing or says no port.
    public init(folder: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            line += byte
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
              let port = Int(text[range].dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw FFmpegTool.Failure(description: "python3 -m http.server said no port: \(text)")
        }
        self.port = port
    }

    /// The URL of `path` under the folder.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Kills the server: SIGKILL, as a test runner may start children with SIGTERM blocked.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
