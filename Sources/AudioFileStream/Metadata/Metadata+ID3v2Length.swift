extension Metadata {
    /// The length of the ID3v2 tag whose header starts `bytes`, footer included, or nil when no plausible ID3v2
    /// header does (an unknown version, a size that is not syncsafe, fewer than 10 bytes): what comes before a
    /// stream's audio however large its pictures, for a reader that bounds the bytes it waits for audio.
    public static func id3v2Length(_ bytes: UnsafeRawBufferPointer) -> Int? {
        ID3v2Header(bytes)?.wholeSize
    }
}
