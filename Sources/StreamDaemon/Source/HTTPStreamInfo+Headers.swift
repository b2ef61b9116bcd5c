import AudioStreamProtocol
import NIOHTTP1

extension HTTPStreamInfo {
    init(headers: HTTPHeaders) {
        self.init { headers.first(name: $0) }
    }
}
