/// The header before each ID3v2 frame: a 3-character id and 24-bit size in ID3v2.2; a 4-character id, a 32-bit
/// size (syncsafe in 2.4) and two flag bytes in ID3v2.3/2.4.
package struct ID3v2FrameHeader {
    /// What a frame holds, as far as this library decodes it; decided by the frame id.
    enum Kind {
        /// T*** frames: one or more strings.
        case text
        /// TXXX: a description and strings.
        case userText
        /// COMM, USLT: a language, a description and a text.
        case comment
        /// W*** frames: a Latin-1 URL.
        case url
        /// WXXX: a description and a Latin-1 URL.
        case userURL
        /// APIC (ID3v2.2 PIC).
        case picture
        /// Anything else, reported by size.
        case other
    }

    /// The id as stored; for an ID3v2.2 id in an ID3v2.3/2.4 header, the id that frame became.
    package let id: String
    /// A zero-padded 3-letter id in an ID3v2.3/2.4 header that names no ID3v2.3 frame (CRM, or no ID3v2.2 id at
    /// all): the frame is skipped, as mutagen skips it.
    let isDropped: Bool
    /// The bytes after this header, as stored (before per-frame unsynchronisation is undone).
    package let size: Int
    /// Bytes between the header and the frame's data: a grouping id, an encryption method, a data length
    /// indicator (2.4) or a decompressed size (2.3), in the order the specs put them.
    let prefixLength: Int
    /// The data is zlib-compressed or encrypted, which this library cannot undo without Foundation.
    let isOpaque: Bool
    /// ID3v2.4: this frame's data is unsynchronised.
    let isUnsynchronised: Bool

    /// The length of a frame header in a tag of `majorVersion`.
    package static func length(majorVersion: UInt8) -> Int {
        majorVersion == 2 ? 6 : 10
    }

    /// Reads a frame header from `bytes` (exactly `length(majorVersion:)` of them), or nil when the id is not
    /// made of capitals and digits: padding, or data that cannot be trusted to hold frames.
    package init?(_ bytes: UnsafeRawBufferPointer, majorVersion: UInt8) {
        var idBytes = bytes.prefix(majorVersion == 2 ? 3 : 4)
        // Some taggers write ID3v2.3 frames under ID3v2.2 ids padded with a zero (`TT2\0`); mutagen reads each as
        // the frame its id became.
        let hasV22ID = majorVersion > 2 && idBytes.last == 0
        if hasV22ID { idBytes = idBytes.dropLast() }
        guard idBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { return nil }
        let storedID = String(decoding: idBytes, as: UTF8.self)
        let v23ID = hasV22ID ? Self.v23IDsOfV22IDs[storedID] : storedID
        id = v23ID ?? storedID
        isDropped = v23ID == nil
        switch majorVersion {
        case 2:
            size = bytes.bigEndianInteger(at: 3, count: 3)
            (prefixLength, isOpaque, isUnsynchronised) = (0, false, false)
        case 3:
            size = bytes.bigEndianInteger(at: 4, count: 4)
            let format = bytes[9]
            let isCompressed = format & 0x80 != 0, isEncrypted = format & 0x40 != 0, isGrouped = format & 0x20 != 0
            prefixLength = (isCompressed ? 4 : 0) + (isEncrypted ? 1 : 0) + (isGrouped ? 1 : 0)
            (isOpaque, isUnsynchronised) = (isCompressed || isEncrypted, false)
        default:
            // iTunes wrote plain 32-bit sizes into ID3v2.4 tags; a size that is not syncsafe can only be one.
            size = bytes.syncsafeInteger(at: 4, count: 4) ?? bytes.bigEndianInteger(at: 4, count: 4)
            let format = bytes[9]
            let isGrouped = format & 0x40 != 0, isCompressed = format & 0x08 != 0, isEncrypted = format & 0x04 != 0
            let hasDataLength = format & 0x01 != 0
            prefixLength = (isGrouped ? 1 : 0) + (isEncrypted ? 1 : 0) + (hasDataLength ? 4 : 0)
            (isOpaque, isUnsynchronised) = (isCompressed || isEncrypted, format & 0x02 != 0)
        }
    }

    var kind: Kind {
        switch id {
        case "TXXX", "TXX": .userText
        case "WXXX", "WXX": .userURL
        case "COMM", "COM", "USLT", "ULT": .comment
        case "APIC", "PIC": .picture
        default: id.hasPrefix("T") ? .text : id.hasPrefix("W") ? .url : .other
        }
    }
}
