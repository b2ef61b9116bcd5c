import Foundation

/// What an HTTP radio response says about the station: its ICY headers and content type.
public struct HTTPStreamInfo: Equatable, Sendable {
    public var contentType: String?
    public var name: String?
    public var genre: String?
    public var url: String?
    /// `icy-description`.
    public var description: String?
    /// `icy-br`: the announced bit rate in kb/s.
    public var bitRate: Int?
    /// `icy-metaint`: audio bytes between metadata blocks, or nil when the body holds none.
    public var metaint: Int?

    /// Reads the response's headers, which `header` gives by their lower-case names.
    public init(header: (String) -> String?) {
        func value(_ name: String) -> String? {
            header(name).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        contentType = value(Self.names.contentType)
        name = value(Self.names.name)
        genre = value(Self.names.genre)
        url = value(Self.names.url)
        description = value(Self.names.description)
        // Some servers send "128,128" (two values); the first is the bit rate.
        bitRate = value(Self.names.bitRate).flatMap { Int($0.prefix { $0.isNumber }) }
        metaint = value(Self.names.metaint).flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The headers that say this, by which `init(header:)` reads it back.
    public var headers: [(name: String, value: String)] {
        let names = Self.names
        let values = [
            (names.contentType, contentType), (names.name, name), (names.genre, genre), (names.url, url),
            (names.description, description), (names.bitRate, bitRate.map(String.init)),
            (names.metaint, metaint.map(String.init)),
        ]
        return values.compactMap { name, value in value.map { (name, $0) } }
    }

    /// The header of each field.
    private static let names = (
        contentType: "content-type", name: "icy-name", genre: "icy-genre", url: "icy-url",
        description: "icy-description", bitRate: "icy-br", metaint: "icy-metaint"
    )

    /// The `metadata` event of the `events` schema, for a response whose audio starts after `offset` bytes.
    public func json(offset: Int64) -> JSON {
        EventJSON.stationMetadata(offset: offset, name: name, genre: genre, url: url, description: description,
                                  bitRate: bitRate, contentType: contentType)
    }
}
