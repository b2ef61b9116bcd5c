/// iTunes' gapless information, the `iTunSMPB` free-form comment: space-separated hexadecimal fields, of which
/// the second is the encoder's priming, the third its padding and the fourth the original length in frames.
enum ITunesGaplessInfo {
    /// The free-form key iTunes writes it under.
    static let key = "----:com.apple.iTunes:iTunSMPB"

    /// The packet table the comment states, or nil when it is not in that form.
    static func packetTable(_ text: String) -> PacketTableInfo? {
        let fields = text.split(separator: " ").map { UInt64($0, radix: 16) }
        guard fields.count >= 4, let priming = fields[1], let remainder = fields[2], let valid = fields[3],
              priming <= UInt64(Int32.max), remainder <= UInt64(Int32.max), valid <= UInt64(Int64.max) else { return nil }
        return PacketTableInfo(validFrames: Int64(valid), primingFrames: Int32(priming), remainderFrames: Int32(remainder))
    }
}
