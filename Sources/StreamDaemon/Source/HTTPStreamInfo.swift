import AudioStreamProtocol
import Foundation
import NIOHTTP1

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

    init(headers: HTTPHeaders) {
        func value(_ name: String) -> String? {
            headers.first(name: name).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        contentType = value("content-type")
        name = value("icy-name")
        genre = value("icy-genre")
        url = value("icy-url")
        description = value("icy-description")
        // Some servers send "128,128" (two values); the first is the bit rate.
        bitRate = value("icy-br").flatMap { Int($0.prefix { $0.isNumber }) }
        metaint = value("icy-metaint").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The `metadata` event of the `events` schema, for a response whose audio starts after `offset` bytes.
    public func json(offset: Int64) -> JSON {
        EventJSON.stationMetadata(offset: offset, name: name, genre: genre, url: url, description: description,
                                  bitRate: bitRate, contentType: contentType)
    }
}
