/// Bytes a reader leaves to the driver after those it consumed, passed over without calling it again until they
/// have gone by, in any chunking (GStreamer baseparse's `skipsize`).
enum Skip {
    /// The next `count` bytes stream past unread: a part of the file the reader does not need.
    case bytes(Int64)
    /// The next `count` bytes hold a tag that starts at stream offset `offset` (its header included): they are fed
    /// to `tag` as far as it takes them, and the rest stream past unread. The tag is reported once it has all its
    /// bytes or `count` bytes went by, or where the input ends or breaks off before that, with the fields read so
    /// far. Boxed, so that every `ReadProgress` stays small.
    indirect case tag(TagReader, offset: Int64, count: Int64)

    /// The bytes passed over.
    var count: Int64 {
        switch self {
        case .bytes(let count), .tag(_, _, let count): count
        }
    }
}

/// The bytes of a `Skip` still to go by, and the tag they feed.
struct Passage {
    private var remaining: Int64 = 0
    private var tag: TagReader?
    private var tagOffset: Int64 = 0

    init() {}

    init(_ skip: Skip) {
        switch skip {
        case .bytes(let count):
            remaining = count
        case .tag(let tag, let offset, let count):
            (self.tag, tagOffset, remaining) = (tag, offset, count)
        }
    }

    /// True once every byte went by.
    var isDone: Bool { remaining == 0 }

    /// Takes the passage's bytes from the start of `bytes`; returns how many it took.
    mutating func take(_ bytes: UnsafeRawBufferPointer, into output: ParserOutput) -> Int {
        let count = Int(min(remaining, Int64(bytes.count)))
        if var reader = tag {
            tag = nil  // so the tag's buffers are not shared while it is fed
            _ = reader.consume(UnsafeRawBufferPointer(rebasing: bytes.prefix(count)))
            if reader.remainingBytes > 0 && Int64(count) < remaining {
                tag = reader
            } else if let metadata = reader.finish() {
                output.metadata(metadata, at: tagOffset)
            }
        }
        remaining -= Int64(count)
        return count
    }

    /// The input ends or breaks off before the passage's end: the tag is reported with the fields it read.
    mutating func end(into output: ParserOutput) {
        if let metadata = tag?.finish() { output.metadata(metadata, at: tagOffset) }
        self = Passage()
    }
}
