import AudioFileStream

/// The `metadata` events of what a network source says beside the audio: an HTTP response's station headers and
/// the ICY blocks of its body.
extension EventJSON {
    /// The `metadata` event of an ICY block found after `offset` audio bytes: like a tag's, with the common keys
    /// (the title is StreamTitle whole: stations differ in how they join artist and title) and the raw fields
    /// under their ICY keys, plus the block's text.
    public static func icyMetadata(
        offset: Int64, streamTitle: String?, streamUrl: String?, fields: [(key: String, value: String)], text: String
    ) -> JSON {
        var common = NormalizedTags()
        common.title = streamTitle.flatMap { $0.isEmpty ? nil : $0 }
        return .object([
            ("event", .string("metadata")), ("source", .string(MetadataFormat.icy.rawValue)),
            ("offset", .number(offset)), ("streamTitle", .optional(streamTitle, JSON.string)),
            ("streamUrl", .optional(streamUrl, JSON.string)), ("tags", tags(common)),
            ("raw", .array(fields.map { field(RawTagField(key: $0.key, value: .text([$0.value]))) })),
            ("text", .string(text)),
        ])
    }

    /// The `metadata` event of an HTTP response's `icy-*` headers and content type, for a response whose audio
    /// starts after `offset` bytes; `bitRate` in kb/s, as `icy-br` gives it.
    public static func stationMetadata(
        offset: Int64, name: String?, genre: String?, url: String?, description: String?, bitRate: Int?,
        contentType: String?
    ) -> JSON {
        .object([
            ("event", .string("metadata")), ("source", .string("http")), ("offset", .number(offset)),
            ("name", .optional(name, JSON.string)), ("genre", .optional(genre, JSON.string)),
            ("url", .optional(url, JSON.string)), ("description", .optional(description, JSON.string)),
            ("bitRate", .optional(bitRate) { .number($0) }), ("contentType", .optional(contentType, JSON.string)),
        ])
    }
}
