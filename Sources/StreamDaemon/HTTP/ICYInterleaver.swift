import NIOCore

/// Puts ICY metadata blocks into an HTTP listener's audio every `metaint` bytes.
///
/// The first block carries the current title, later ones are empty until the title changes: as Icecast does,
/// so a listener that joins mid-song learns the title within `metaint` bytes.
struct ICYInterleaver {
    /// Audio bytes between two blocks: the response's `icy-metaint`.
    let metaint: Int
    /// Audio bytes still to go before the next block.
    private var untilBlock: Int
    /// The block to send at the next boundary: the latest title not sent yet.
    private var pending: ByteBuffer?
    private static let emptyBlock = ByteBuffer(bytes: ICYMetadataBlock.empty)

    init(metaint: Int) {
        precondition(metaint > 0, "icy-metaint must be positive")
        self.metaint = metaint
        untilBlock = metaint
    }

    /// Sends `block` at the next boundary, unless a newer one replaces it first.
    mutating func announce(_ block: ByteBuffer) {
        pending = block
    }

    /// Hands `audio` to `write` in pieces, with a block at every boundary it crosses.
    mutating func interleave(_ audio: ByteBuffer, _ write: (ByteBuffer) -> Void) {
        var rest = audio
        while rest.readableBytes >= untilBlock {
            write(rest.readSlice(length: untilBlock)!)
            write(pending ?? Self.emptyBlock)
            pending = nil
            untilBlock = metaint
        }
        if rest.readableBytes > 0 {
            untilBlock -= rest.readableBytes
            write(rest)
        }
    }
}
