import AudioStreamProtocol
import Testing

/// A station's headers as servers send them, and back as the headers `audiostream-fetch` passes on.
@Suite struct HTTPStreamInfoTests {
    static let sent = [
        "content-type": " audio/mpeg ", "icy-name": "Café Radio", "icy-genre": "Jazz", "icy-url": "http://radio.example/",
        "icy-description": "", "icy-br": "128,128", "icy-metaint": "16000",
    ]

    @Test func headersAreTrimmedAndTheFirstBitRateIsTaken() {
        let info = HTTPStreamInfo { Self.sent[$0] }
        #expect(info.contentType == "audio/mpeg")
        #expect(info.name == "Café Radio")
        #expect(info.description == nil, "an empty header is no header")
        #expect(info.bitRate == 128)
        #expect(info.metaint == 16000)
    }

    @Test func theHeadersReadBackAsTheSameInfo() {
        let info = HTTPStreamInfo { Self.sent[$0] }
        let headers = info.headers
        #expect(headers.map(\.name) == ["content-type", "icy-name", "icy-genre", "icy-url", "icy-br", "icy-metaint"])
        #expect(HTTPStreamInfo { name in headers.first { $0.name == name }?.value } == info)
    }
}
