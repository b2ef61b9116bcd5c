import Glibc
import NIOHTTP1

/// The request heads a kept-alive HLS player sends, read without NIOHTTP1's pipeline: a `GET` or `HEAD` of
/// HTTP/1.0 or 1.1, with plain header fields and no body. Anything else is `unusual`, and the connection goes
/// back to NIOHTTP1, which reads it as it reads every other request: this recognises the common case only.
///
/// The head it makes keeps the fields an HLS answer depends on (`Host`, `User-Agent`, `Connection`), not the
/// others: a request that needs more goes to NIOHTTP1 whole.
enum PlainRequestHead {
    /// No blank line yet: more bytes are needed.
    case incomplete
    /// A whole head of `length` bytes, the blank line included.
    case head(HTTPRequestHead, length: Int)
    /// A head this does not read: another method or version, a body, folded or odd fields, too long.
    case unusual

    /// Reads the head at the start of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        guard let end = Self.blankLine(in: bytes) else {
            self = bytes.count > HTTPRequest.maximumHeadSize ? .unusual : .incomplete
            return
        }
        // The lines with their CRLF, the blank line's left out.
        guard end <= HTTPRequest.maximumHeadSize,
              let head = Self.read(UnsafeRawBufferPointer(rebasing: bytes[..<(end + 2)])) else {
            self = .unusual
            return
        }
        self = .head(head, length: end + 4)
    }

    /// Where `\r\n\r\n` starts.
    private static func blankLine(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 3
        while index < bytes.count {
            // Most bytes are not a line feed: one comparison each.
            if bytes[index] == UInt8(ascii: "\n"), bytes[index - 1] == UInt8(ascii: "\r"),
               bytes[index - 2] == UInt8(ascii: "\n"), bytes[index - 3] == UInt8(ascii: "\r") {
                return index - 3
            }
            index += 1
        }
        return nil
    }

    /// The request line and fields of `head`, each line ending in CRLF.
    private static func read(_ head: UnsafeRawBufferPointer) -> HTTPRequestHead? {
        var lines = Lines(bytes: head)
        guard let requestLine = lines.next() else { return nil }
        guard let firstSpace = requestLine.firstIndex(of: UInt8(ascii: " ")),
              let lastSpace = requestLine.lastIndex(of: UInt8(ascii: " ")), firstSpace < lastSpace,
              let method = method(requestLine[..<firstSpace]),
              let version = version(requestLine[(lastSpace + 1)...]) else { return nil }
        let target = requestLine[(firstSpace + 1)..<lastSpace]
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var headers = HTTPHeaders()
        // Room for the three kept at once: grown a field at a time, it would allocate at each.
        headers.reserveCapacity(3)
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let name = line[..<colon]
            let value = trimmed(line[(colon + 1)...])
            guard !name.isEmpty, name.allSatisfy(isTokenByte),
                  value.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == UInt8(ascii: "\t") }) else { return nil }
            // A body, or a change of protocol, is NIOHTTP1's to read.
            if name.matches("content-length") || name.matches("transfer-encoding") || name.matches("upgrade") {
                return nil
            }
            if let kept = keptName(name) { headers.add(name: kept, value: String(decoding: value, as: UTF8.self)) }
        }
        // A line feed without its carriage return ends the lines early.
        guard lines.start == head.count else { return nil }
        return HTTPRequestHead(version: version, method: method, uri: String(decoding: target, as: UTF8.self),
                               headers: headers)
    }

    /// The lines of a head, each without its CRLF; nil at the end, or at a line without CR before its LF.
    private struct Lines {
        let bytes: UnsafeRawBufferPointer
        var start = 0

        mutating func next() -> Slice<UnsafeRawBufferPointer>? {
            guard start < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + start, CInt(UInt8(ascii: "\n")), bytes.count - start) else { return nil }
            let feed = base.distance(to: UnsafeRawPointer(found))
            guard feed > start, bytes[feed - 1] == UInt8(ascii: "\r") else { return nil }
            defer { start = feed + 1 }
            return bytes[start..<(feed - 1)]
        }
    }

    private static func trimmed(_ value: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        var (lower, upper) = (value.startIndex, value.endIndex)
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while lower < upper, blank(value.base[lower]) { lower += 1 }
        while upper > lower, blank(value.base[upper - 1]) { upper -= 1 }
        return value.base[lower..<upper]
    }

    private static func method(_ bytes: Slice<UnsafeRawBufferPointer>) -> HTTPMethod? {
        if bytes.equals("GET") { return .GET }
        if bytes.equals("HEAD") { return .HEAD }
        return nil
    }

    private static func version(_ bytes: Slice<UnsafeRawBufferPointer>) -> HTTPVersion? {
        if bytes.equals("HTTP/1.1") { return .http1_1 }
        if bytes.equals("HTTP/1.0") { return .http1_0 }
        return nil
    }

    /// The name of a field an HLS answer depends on: HTTP/1.1's required `Host`, the session's `User-Agent`,
    /// and `Connection`, which says whether the connection stays open.
    private static func keptName(_ name: Slice<UnsafeRawBufferPointer>) -> String? {
        if name.matches("host") { return "host" }
        if name.matches("user-agent") { return "user-agent" }
        if name.matches("connection") { return "connection" }
        return nil
    }

    /// RFC 9110 §5.6.2's token characters.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"),
             UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
             UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}

// Compared with static strings' bytes, the length first: every request's every field is compared with six names.
private extension Slice where Base == UnsafeRawBufferPointer {
    /// Whether these token bytes are `lowercased`, a name of letters and hyphens, in any case: OR 0x20 turns an
    /// upper-case letter into its lower case, and no other token byte into a letter or a hyphen.
    func matches(_ lowercased: StaticString) -> Bool {
        guard count == lowercased.utf8CodeUnitCount else { return false }
        for (offset, byte) in enumerated() where byte | 0x20 != lowercased.utf8Start[offset] { return false }
        return true
    }

    /// Whether these are the bytes of `text`, which is not empty.
    func equals(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && memcmp(base.baseAddress! + startIndex, text.utf8Start, count) == 0
    }
}
