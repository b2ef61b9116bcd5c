import AudioStreamProtocol

/// An http(s) URL read through `audiostream-fetch` (`FetchProcess`), which writes frames in the wire protocol's
/// framing, a 4-byte big-endian length counting the bytes after it, a kind byte, then the payload, in the order the
/// response gave them:
/// - 1, station: the response's station headers (`HTTPStreamInfo.headers`) as `name: value` lines; first, once;
/// - 2, audio: audio bytes, the ICY blocks taken out;
/// - 3, metadata: the text of an ICY block, found after all the audio before it;
/// - 4, failure: why the URL could not be read, one line; the last frame, and the exit status is then 1.
/// The response ended well when the output ends with no failure frame and the exit status is 0.
enum FetchedInput {
    /// What the response delivers, in order.
    enum Event {
        /// The response began: the station's headers.
        case connected(HTTPStreamInfo)
        /// Audio bytes, valid during the call only.
        case audio(UnsafeRawBufferPointer)
        case metadata(ICYMetadata)
    }

    private enum Kind: UInt8 {
        case station = 1
        case audio = 2
        case metadata = 3
        case failure = 4
    }

    /// Fetches `url` and hands `body` its events until the response ends; the helper is gone when this returns.
    /// - Throws: `CommandFailure` naming the URL when it cannot be read, or what `body` throws.
    static func read(_ url: String, _ body: (Event) throws -> Void) throws {
        let process = try FetchProcess(url: url)
        defer { process.stop() }
        let frames = WireClient(descriptor: process.output)
        do {
            while let (type, payload) = try frames.receiveFrame() {
                let text = { String(decoding: payload, as: UTF8.self) }
                switch Kind(rawValue: type) {
                case .station: try body(.connected(station(text())))
                case .audio: try payload.withUnsafeBytes { try body(.audio($0)) }
                case .metadata: try body(.metadata(ICYMetadata(text: text())))
                case .failure: throw CommandFailure("\(url): \(text())")
                case nil: throw CommandFailure("\(url): \(FetchProcess.name) sent a frame of unknown kind \(type)")
                }
            }
        } catch let error as WireError {
            // Cut short: the helper most likely died in the middle of a frame.
            throw CommandFailure("\(url): \(process.wait() ?? "\(FetchProcess.name) sent \(error)")")
        }
        if let ending = process.wait() { throw CommandFailure("\(url): \(ending)") }
    }

    /// The station of `name: value` lines.
    private static func station(_ lines: String) -> HTTPStreamInfo {
        var headers: [Substring: Substring] = [:]
        for line in lines.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon]] = line[line.index(after: colon)...]
        }
        return HTTPStreamInfo { headers[Substring($0)].map(String.init) }
    }
}
