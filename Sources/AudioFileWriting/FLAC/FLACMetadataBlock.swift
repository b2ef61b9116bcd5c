/// A FLAC metadata block (RFC 9639 §8): a type and a body of up to 2^24 - 1 bytes.
public struct FLACMetadataBlock: Equatable, Sendable {
    public enum BlockType: UInt8, Sendable {
        case streamInfo = 0, padding = 1, vorbisComment = 4, picture = 6
    }

    /// The longest body a block's 24-bit length can state.
    public static let largestBody = 0xFF_FFFF

    public var type: BlockType
    public var body: [UInt8]

    public init(type: BlockType, body: [UInt8]) {
        self.type = type
        self.body = body
    }

    /// Zeros left for tags to grow into, so that a tag editor need not move the frames.
    public static func padding(_ length: Int) -> FLACMetadataBlock {
        FLACMetadataBlock(type: .padding, body: [UInt8](repeating: 0, count: length))
    }

    /// Where a native FLAC stream's header puts STREAMINFO's body: after `fLaC` and the block's header.
    public static let streamInfoOffset = 8

    /// The start of a native FLAC stream: `fLaC`, the 34-byte STREAMINFO body `streamInfo` (FLAC's magic cookie),
    /// then `blocks` in order, the last one flagged as the last (§8.1). Blocks whose body is too long for its
    /// length field are left out.
    public static func streamHeader(streamInfo: [UInt8], followedBy blocks: [FLACMetadataBlock]) -> [UInt8] {
        let all = [FLACMetadataBlock(type: .streamInfo, body: streamInfo)]
            + blocks.filter { $0.body.count <= largestBody }
        var header = Array("fLaC".utf8)
        for (index, block) in all.enumerated() {
            let lastFlag: UInt8 = index == all.count - 1 ? 0x80 : 0
            header.append(lastFlag | block.type.rawValue)
            header.append(bigEndian: UInt64(block.body.count), count: 3)
            header += block.body
        }
        return header
    }
}
