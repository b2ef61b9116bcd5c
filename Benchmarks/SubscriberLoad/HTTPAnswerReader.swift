/// HTTP/1.1 answers read off one kept-alive connection, each whole once its `Content-Length` bytes are in.
///
/// Works on the bytes as they come, without strings: a thousand players read by one thread must each cost little,
/// or the figures measure the reader rather than the server.
struct HTTPAnswerReader {
    struct Answer {
        let status: Int
        let statusLine: String
        let body: ArraySlice<UInt8>
    }

    private var bytes: [UInt8] = []
    /// Where the body of the answer under way starts and ends, once its header is in.
    private var body: Range<Int>?

    /// The longest response header accepted.
    private static let headerLimit = 16384
    private static let lengthField = Array("\r\ncontent-length:".utf8)

    /// Takes bytes read and returns the answer they complete, if any.
    /// - Throws: `LoadError` when the header has no end within the limit or no `Content-Length`.
    mutating func take(_ received: UnsafeRawBufferPointer) throws -> Answer? {
        bytes += received
        if body == nil {
            guard let headerEnd = Self.find([13, 10, 13, 10], in: bytes) else {
                guard bytes.count <= Self.headerLimit else { throw LoadError("no end to the response header") }
                return nil
            }
            guard let length = Self.contentLength(in: bytes[..<headerEnd]) else {
                throw LoadError("an answer without Content-Length: \(LoopbackHTTP.statusLine(of: bytes))")
            }
            body = headerEnd + 4..<headerEnd + 4 + length
        }
        guard let body, bytes.count >= body.upperBound else { return nil }
        // Answers come one per request: nothing follows one until the next is asked for.
        let answer = Answer(status: LoopbackHTTP.code(in: bytes), statusLine: LoopbackHTTP.statusLine(of: bytes),
                            body: bytes[body])
        bytes = []
        self.body = nil
        return answer
    }

    /// The offset of `pattern`'s first occurrence in `bytes`: headers are short, and come first.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }

    /// The value of the header's `Content-Length` field, its name in any case.
    private static func contentLength(in header: ArraySlice<UInt8>) -> Int? {
        let lowered = header.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        guard let start = find(lengthField, in: lowered) else { return nil }
        var value = 0
        var sawDigit = false
        for byte in lowered[(start + lengthField.count)...] {
            if byte == 32 && !sawDigit { continue }
            guard byte >= 48 && byte <= 57 else { break }
            value = value * 10 + Int(byte - 48)
            sawDigit = true
        }
        return sawDigit ? value : nil
    }
}
