import Testing
@testable import AudioFileStream

/// The ES_Descriptor reader on descriptors built here from ISO/IEC 14496-1 §7.2.6.5: lengths in the short and
/// the 4-byte forms, the optional fields its flags announce, an MP4 esds box's version and flags before it, and
/// lengths that lie.
@Suite struct ElementaryStreamDescriptorTests {
    static let config: [UInt8] = [0x12, 0x10]

    /// A descriptor of `tag` around `body`, its length in `lengthBytes` bytes.
    static func descriptor(_ tag: UInt8, _ body: [UInt8], lengthBytes: Int = 1) -> [UInt8] {
        let length = (0..<lengthBytes).map { index -> UInt8 in
            let shift = 7 * (lengthBytes - 1 - index)
            return UInt8(body.count >> shift & 0x7F) | (index < lengthBytes - 1 ? 0x80 : 0)
        }
        return [tag] + length + body
    }

    static func esDescriptor(flags: UInt8 = 0, optional: [UInt8] = [], lengthBytes: Int = 1) -> [UInt8] {
        let decoderConfig = [0x40, 0x15, 0, 0, 0, 0, 0, 0xFA, 0, 0, 0, 0xFA, 0]
            + descriptor(5, config, lengthBytes: lengthBytes)
        return descriptor(3, [0, 1, flags] + optional + descriptor(4, decoderConfig, lengthBytes: lengthBytes)
            + descriptor(6, [2], lengthBytes: lengthBytes), lengthBytes: lengthBytes)
    }

    static func read(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBytes { ElementaryStreamDescriptor($0)?.decoderSpecificInfo }
    }

    @Test func theConfigIsFoundWhateverTheLengthForm() {
        #expect(Self.read(Self.esDescriptor(lengthBytes: 1)) == Self.config)
        #expect(Self.read(Self.esDescriptor(lengthBytes: 4)) == Self.config)
        // An MP4 esds box's body: version and flags first.
        #expect(Self.read([0, 0, 0, 0] + Self.esDescriptor(lengthBytes: 4)) == Self.config)
    }

    @Test func optionalFieldsAreSkipped() {
        // dependsOn_ES_ID (2 bytes), a 3-byte URL, OCR_ES_Id (2 bytes).
        let optional: [UInt8] = [0, 7, 3, 0x61, 0x62, 0x63, 0, 9]
        #expect(Self.read(Self.esDescriptor(flags: 0xE0, optional: optional)) == Self.config)
    }

    @Test func lyingOrMissingStructuresGiveNothing() {
        let good = Self.esDescriptor()
        for cut in 0..<good.count - 3 { #expect(Self.read(Array(good.prefix(cut))) == nil, "cut at \(cut)") }
        var longConfig = good
        longConfig[longConfig.firstIndex(of: 5)! + 1] = 0x7F
        #expect(Self.read(longConfig) == nil)
        #expect(Self.read([0x03, 0x80, 0x80, 0x80, 0x80, 0x01]) == nil)
        #expect(Self.read(Array(repeating: 0x04, count: 40)) == nil)
    }
}
