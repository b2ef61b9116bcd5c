import AudioFileStream

/// Writes a Vorbis comment block (Vorbis I §5.2.1, as OpusTags and FLAC's VORBIS_COMMENT carry it) from a tag's
/// fields: the text fields, one `KEY=value` per value; pictures and binary fields are left out.
enum VorbisCommentBlock {
    static let vendor = "audiostreamd"

    static func encode(_ fields: [RawTagField]) -> [UInt8] {
        var comments: [String] = []
        for field in fields {
            guard case .text(let values) = field.value else { continue }
            comments += values.map { "\(field.key)=\($0)" }
        }
        var block = lengthPrefixed(vendor)
        block += littleEndian(UInt32(comments.count))
        for comment in comments { block += lengthPrefixed(comment) }
        return block
    }

    private static func lengthPrefixed(_ text: String) -> [UInt8] {
        littleEndian(UInt32(text.utf8.count)) + Array(text.utf8)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }
}
