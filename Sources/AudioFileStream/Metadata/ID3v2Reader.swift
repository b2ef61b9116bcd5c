/// Reads an ID3v2.2, 2.3 or 2.4 tag as it streams past. The header was read by `TagReader.detect`; the
/// extended header and padding are skipped, each frame's data is kept within `MetadataLimits` and decoded when
/// the frame ends, and anything beyond the limits is only counted.
struct ID3v2Reader {
    private enum State {
        /// Collecting the 4-byte size of the extended header.
        case extendedHeaderSize(FieldBuffer)
        /// Skipping bytes that are not needed: the rest of the extended header (CRC, restrictions) or a dropped
        /// frame.
        case skipping(Int)
        case frameHeader(FieldBuffer)
        /// A frame whose data is streaming into `frameData`.
        case frame(PendingFrame)
        /// Padding, an unreadable tag or bytes that are not frames: the rest of the body is skipped.
        case ended
    }

    private struct PendingFrame {
        let header: ID3v2FrameHeader
        /// Prefix bytes (grouping id, encryption method, data length) still to skip before the data.
        var prefixLeft: Int
        /// Stored bytes of the frame still to come.
        var storedLeft: Int
        /// ID3v2.4 per-frame unsynchronisation, undone as the data streams in.
        var unsynchronisation: Unsynchronisation?
    }

    let header: ID3v2Header
    private let limits: MetadataLimits
    /// Tag-level unsynchronisation, undone over the whole body in ID3v2.2/2.3.
    private var unsynchronisation: Unsynchronisation?
    private var state: State
    /// The current frame's data; held outside `state` so that appending never copies it.
    private var frameData = FieldBuffer(limit: 0)
    /// The frames read so far, in tag order.
    private var kept = KeptFields()
    /// The fields read so far, in order.
    var fields: [RawTagField] { kept.fields }

    init(header: ID3v2Header, limits: MetadataLimits) {
        self.header = header
        self.limits = limits
        if header.isUnsynchronised && header.majorVersion < 4 { unsynchronisation = Unsynchronisation() }
        if header.isCompressed {
            state = .ended
        } else if header.hasExtendedHeader {
            state = .extendedHeaderSize(FieldBuffer(limit: 4))
        } else {
            state = .frameHeader(FieldBuffer(limit: ID3v2FrameHeader.length(majorVersion: header.majorVersion)))
        }
    }

    /// The bytes held: the decoded frames and the data of the frame being read.
    var keptByteCount: Int { kept.byteCount + frameData.kept.count }

    /// Reads the next bytes of the tag; `offset` is where `bytes` start, counted from the tag's first byte.
    mutating func consume(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        // Once the frames have ended, the rest streams past without even being decoded.
        if case .ended = state { return }
        let body = bytes.slice(startingAt: offset, within: header.bodyRange)
        guard !body.isEmpty else { return }
        if var tagUnsynchronisation = unsynchronisation {
            let decoded = tagUnsynchronisation.decode(body)
            unsynchronisation = tagUnsynchronisation
            decoded.withUnsafeBytes { readBody($0) }
        } else {
            readBody(body)
        }
    }

    private mutating func readBody(_ bytes: UnsafeRawBufferPointer) {
        var position = 0
        while position < bytes.count {
            position += step(UnsafeRawBufferPointer(rebasing: bytes[position...]))
        }
    }

    /// Advances over the start of `bytes` and returns how many bytes that took (at least one).
    private mutating func step(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch state {
        case .extendedHeaderSize(var sizeBytes):
            let taken = sizeBytes.fill(from: bytes)
            state = sizeBytes.isFull ? afterExtendedHeaderSize(sizeBytes.kept) : .extendedHeaderSize(sizeBytes)
            return taken
        case .skipping(let count):
            let taken = min(count, bytes.count)
            state = count > taken ? .skipping(count - taken) : nextFrameHeader()
            return taken
        case .frameHeader(var headerBytes):
            let taken = headerBytes.fill(from: bytes)
            state = headerBytes.isFull ? startFrame(headerBytes.kept) : .frameHeader(headerBytes)
            return taken
        case .frame(var frame):
            let taken = min(frame.storedLeft, bytes.count)
            let prefixTaken = min(frame.prefixLeft, taken)
            let data = UnsafeRawBufferPointer(rebasing: bytes[prefixTaken..<taken])
            if var frameUnsynchronisation = frame.unsynchronisation {
                frameData.append(contentsOf: frameUnsynchronisation.decode(data))
                frame.unsynchronisation = frameUnsynchronisation
            } else {
                frameData.append(data)
            }
            frame.prefixLeft -= prefixTaken
            frame.storedLeft -= taken
            if frame.storedLeft > 0 {
                state = .frame(frame)
            } else {
                finishFrame(frame.header)
                state = nextFrameHeader()
            }
            return taken
        case .ended:
            return bytes.count
        }
    }

    /// ID3v2.3 counts the extended header's size without its 4 size bytes; ID3v2.4 counts them, syncsafe.
    private func afterExtendedHeaderSize(_ sizeBytes: [UInt8]) -> State {
        let rest = sizeBytes.withUnsafeBytes { size in
            header.majorVersion == 3
                ? size.bigEndianInteger(at: 0, count: 4)
                : size.syncsafeInteger(at: 0, count: 4).map { $0 - 4 }
        }
        guard let rest, rest >= 0 else { return .ended }
        return rest > 0 ? .skipping(rest) : nextFrameHeader()
    }

    private func nextFrameHeader() -> State {
        .frameHeader(FieldBuffer(limit: ID3v2FrameHeader.length(majorVersion: header.majorVersion)))
    }

    private mutating func startFrame(_ headerBytes: [UInt8]) -> State {
        let majorVersion = header.majorVersion
        guard let frameHeader = headerBytes.withUnsafeBytes({ ID3v2FrameHeader($0, majorVersion: majorVersion) })
        else { return .ended }
        // An empty frame holds nothing, not even its encoding byte; like mutagen, drop it.
        guard frameHeader.size > 0 else { return nextFrameHeader() }
        guard !frameHeader.isDropped else { return .skipping(frameHeader.size) }
        let isPicture = frameHeader.kind == .picture
        frameData = FieldBuffer(
            limit: frameHeader.isOpaque ? 0 : limits.keepLimit(isPicture: isPicture, keptSoFar: kept.byteCount)
        )
        // ID3v2.4 §3.1: the tag's unsynchronisation flag means every frame is unsynchronised.
        let isUnsynchronised = majorVersion == 4 && (frameHeader.isUnsynchronised || header.isUnsynchronised)
        return .frame(PendingFrame(
            header: frameHeader, prefixLeft: frameHeader.prefixLength, storedLeft: frameHeader.size,
            unsynchronisation: isUnsynchronised ? Unsynchronisation() : nil
        ))
    }

    private mutating func finishFrame(_ frameHeader: ID3v2FrameHeader) {
        let data = frameData
        frameData = FieldBuffer(limit: 0)
        guard let value = ID3v2FrameDecoder.value(of: frameHeader, data: data, limits: limits) else { return }
        kept.record(RawTagField(key: frameHeader.id, value: value), limits: limits)
    }
}
