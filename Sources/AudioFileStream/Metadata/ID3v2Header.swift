/// The 10-byte header that starts an ID3v2 tag: `ID3`, version, flags and a syncsafe size
/// (ID3v2.4 structure §3.1; the same layout in ID3v2.2 and 2.3).
package struct ID3v2Header {
    package static let length = 10

    /// 2, 3 or 4.
    package let majorVersion: UInt8
    package let flags: UInt8
    /// The bytes between the header and the footer (extended header, frames, padding), as stored.
    package let size: Int

    /// Reads the header at the start of `bytes` (at least `length` of them), or nil when it is not a plausible
    /// ID3v2 header: an unknown version, a revision of 0xFF or a size that is not syncsafe.
    package init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.length, bytes.matches("ID3", at: 0),
              (2...4).contains(bytes[3]), bytes[4] != 0xFF,
              let size = bytes.syncsafeInteger(at: 6, count: 4)
        else { return nil }
        majorVersion = bytes[3]
        flags = bytes[5]
        self.size = size
    }

    /// `id3v2.2`, `id3v2.3` or `id3v2.4`.
    var source: MetadataFormat { .id3v2(majorVersion: majorVersion) }

    /// The whole tag is unsynchronised. ID3v2.2/2.3 undo it over everything after the header; in ID3v2.4 it
    /// means every frame is unsynchronised.
    package var isUnsynchronised: Bool { flags & 0x80 != 0 }

    /// An extended header follows (ID3v2.3/2.4).
    package var hasExtendedHeader: Bool { majorVersion >= 3 && flags & 0x40 != 0 }

    /// ID3v2.2 only: the tag is compressed with a scheme that was never defined, so it is unreadable and the
    /// spec says to ignore it (ID3v2.2 §3.1).
    var isCompressed: Bool { majorVersion == 2 && flags & 0x40 != 0 }

    /// A 10-byte footer follows the frames (ID3v2.4 only).
    var hasFooter: Bool { majorVersion == 4 && flags & 0x10 != 0 }

    /// The tag's length from its first byte to its last, footer included.
    package var wholeSize: Int { Self.length + size + (hasFooter ? Self.length : 0) }

    /// Where the extended header, frames and padding lie, counted from the tag's first byte.
    package var bodyRange: Range<Int> { Self.length..<Self.length + size }
}
