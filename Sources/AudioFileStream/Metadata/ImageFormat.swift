/// Recognises the picture formats found in tags by their first bytes, for tag formats that store no MIME type.
public enum ImageFormat {
    private static let signatures: [(magic: [UInt8], mimeType: String)] = [
        ([0xFF, 0xD8, 0xFF], "image/jpeg"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
        (Array("GIF8".utf8), "image/gif"),
        (Array("BM".utf8), "image/bmp"),
    ]

    /// The MIME type of the picture starting with `bytes`, or an empty string when it is not recognised.
    public static func mimeType(of bytes: ArraySlice<UInt8>) -> String {
        signatures.first { bytes.starts(with: $0.magic) }?.mimeType ?? ""
    }
}
