import AudioStreamProtocol
import NIOHTTP1

extension HTTPStreamInfo {
    /// Reads a response head's station headers.
    init(headers: HTTPHeaders) {
        self.init { headers.first(name: $0) }
    }
}
