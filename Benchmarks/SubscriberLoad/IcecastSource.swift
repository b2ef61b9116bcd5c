import Glibc

/// The benchmark's source connection to Icecast: an HTTP PUT of audio/mpeg on the mount (Icecast 2.4's source
/// protocol), answered 200 before any audio; the pacer then writes the stream on the socket.
enum IcecastSource {
    /// - Returns: the connected socket, ready for the stream's bytes.
    /// - Throws: when Icecast refuses the source.
    static func connect(port: Int, mount: String, password: String) throws -> Int32 {
        let file = try LoopbackHTTP.send("PUT", mount, port: port, user: "source", password: password,
                                         headers: ["Content-Type: audio/mpeg", "Ice-Public: 0"])
        do {
            let status = try LoopbackHTTP.status(of: file)
            guard status == 200 else { throw LoadError("Icecast answered the source with \(status)") }
            return file
        } catch {
            close(file)
            throw error
        }
    }
}
