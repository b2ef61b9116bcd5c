extension UnsafeRawBufferPointer {
    /// True when the byte at `position` is the first letter of `ID3`, `TAG` or `APETAGEX`: a cheap test before
    /// `startsTag(at:)`.
    @inline(__always)
    func mayStartTag(at position: Int) -> Bool {
        let byte = self[position]
        return byte == 0x49 || byte == 0x54 || byte == 0x41
    }

    /// True when the magic of a tag that may sit between frames (ID3v2, ID3v1, APEv2) starts at `position`.
    func startsTag(at position: Int) -> Bool {
        mayStartTag(at: position)
            && (matches("ID3", at: position) || matches("TAG", at: position) || matches("APET", at: position))
    }
}
