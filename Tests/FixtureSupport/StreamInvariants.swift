import AudioFileStream

/// An invariant of `AudioFileStream` that a parse broke, in words.
public struct InvariantViolation: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// An event in a form that does not depend on how packets were batched, so that parses of the same bytes in
/// different chunks compare equal.
public enum CheckedEvent: Equatable, CustomStringConvertible {
    case property(AudioFileStreamPropertyID, AudioFileStreamPropertyValue)
    case packet(offset: Int64, size: UInt32, frames: UInt32, followsDiscontinuity: Bool)
    case metadata(offset: Int64, Metadata)
    case discontinuity(Discontinuity)
    case warning(StreamWarning)
    /// A call threw; the parse stopped there.
    case failed(String)

    public var description: String {
        switch self {
        case .property(let id, let value): "property \(id) \(value)"
        case .packet(let offset, let size, let frames, let follows):
            "packet \(offset)+\(size) (\(frames) frames)\(follows ? " after a discontinuity" : "")"
        case .metadata(let offset, let metadata): "\(metadata.source) tag at \(offset)"
        case .discontinuity(let gap): "\(gap.reason) discontinuity at \(gap.offset), \(gap.skippedBytes) bytes skipped"
        case .warning(let warning): "\(warning.kind) warning at \(warning.offset)"
        case .failed(let error): "threw \(error)"
        }
    }
}

/// What every parse must keep, whatever the bytes, chunks, discontinuities and hint. Checked through the public
/// API alone, so the checks hold for every format the library reads and survive changes to its internals. Shared
/// by the fuzz target (Fuzz/) and the tests that replay its findings.
public enum StreamInvariants {
    /// The most a stream may hold between calls. The library bounds it by "the largest packet plus a header";
    /// 1 MiB is above every supported format's largest packet with room for a container's header.
    public static let bufferedByteLimit = 1 << 20
    /// Streams up to this size are also parsed one byte at a time and compared with the whole parse.
    public static let byteByByteLimit = 16 << 10

    /// Parses `scenario`, checking each event as it comes and the stream after each call. Without cuts the
    /// stream is parsed whole too, and one byte at a time up to `byteByByteLimit` bytes: all must give the same
    /// events.
    /// - Throws: the first invariant broken.
    public static func check(_ scenario: FuzzScenario) throws(InvariantViolation) {
        let events = try CheckedParse(scenario).run()
        guard scenario.cuts.isEmpty else { return }
        let whole = try CheckedParse(scenario.with(chunks: .whole)).run()
        try requireSame(events, as: whole, fedIn: scenario.chunks)
        if scenario.stream.count <= byteByByteLimit {
            try requireSame(CheckedParse(scenario.with(chunks: .single)).run(), as: whole, fedIn: .single)
        }
    }

    private static func requireSame(
        _ events: [CheckedEvent], as whole: [CheckedEvent], fedIn chunks: FuzzScenario.Chunks
    ) throws(InvariantViolation) {
        guard events != whole else { return }
        let index = (0..<min(events.count, whole.count)).first { events[$0] != whole[$0] }
            ?? min(events.count, whole.count)
        let got = index < events.count ? events[index].description : "no more events"
        let expected = index < whole.count ? whole[index].description : "no more events"
        throw InvariantViolation(description:
            "fed in \(chunks), event \(index) is \(got) where the whole feed gives \(expected)")
    }

    /// The fewest bytes the tag at the start of `bytes` spans, read from its own header (ID3v2, APEv2, ID3v1),
    /// or 1 for a kind of tag not known here, so that at least its first byte is not a packet's.
    static func minimumTagLength(_ bytes: ArraySlice<UInt8>) -> Int {
        func field(_ range: Range<Int>) -> [UInt8] { Array(bytes.dropFirst(range.lowerBound).prefix(range.count)) }
        if bytes.starts(with: "ID3".utf8) {
            // 10-byte header, then a syncsafe size; a footer, if any, only adds to it.
            let size = field(6..<10)
            guard size.count == 4, size.allSatisfy({ $0 < 0x80 }) else { return 10 }
            return 10 + size.reduce(0) { $0 << 7 | Int($1) }
        }
        if bytes.starts(with: "APETAGEX".utf8) {
            // 32-byte header or footer; a header is followed by `size` bytes of items and footer.
            let size = field(12..<16), flags = field(20..<24)
            guard size.count == 4, flags.count == 4, flags[3] & 0x20 != 0 else { return 32 }
            return 32 + size.reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        return bytes.starts(with: "TAG".utf8) ? 128 : 1
    }
}

/// One parse of a scenario, checking each event as the stream reports it.
final class CheckedParse {
    /// Bytes fed at consecutive stream offsets, as the stream numbers them.
    private struct Stretch {
        let start: Int64
        var bytes: [UInt8]

        func holds(_ range: Range<Int64>) -> Bool {
            start <= range.lowerBound && range.upperBound <= start + Int64(bytes.count)
        }

        func bytes(in range: Range<Int64>) -> ArraySlice<UInt8> {
            bytes[Int(range.lowerBound - start)..<Int(range.upperBound - start)]
        }
    }

    private let scenario: FuzzScenario
    private weak var stream: AudioFileStream?
    private var events: [CheckedEvent] = []
    private var violation: InvariantViolation?
    private var stretches: [Stretch] = []
    /// The next stretch does not continue the last one even if its offset does: the stream dropped what it held.
    private var stretchIsClosed = false
    /// The offset the stream gives the next byte unless a call says otherwise.
    private var nextOffset: Int64 = 0
    /// The end of the last packet, tag or skipped run since the input last jumped: nothing reported later may
    /// start before it.
    private var occupiedEnd: Int64?
    private var isReady = false
    private var hasPackets = false
    private var isFinished = false
    private var discontinuitySinceLastPacket = false
    /// The input discontinuity the current call must report, and whether the input jumped there.
    private var expectedDiscontinuity: (offset: Int64, reason: Discontinuity.Reason, jumps: Bool)?

    init(_ scenario: FuzzScenario) {
        self.scenario = scenario
    }

    /// Parses the scenario and returns its events, ending with `.failed` if a call threw.
    /// - Throws: the first invariant broken.
    func run() throws(InvariantViolation) -> [CheckedEvent] {
        let stream: AudioFileStream
        do {
            stream = try AudioFileStream(fileTypeHint: scenario.hint) { [self] event in receive(event) }
        } catch {
            return [.failed("\(error)")]
        }
        self.stream = stream
        do {
            try feedScenario(to: stream)
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            events.append(.failed("\(error)"))
        }
        return events
    }

    private func feedScenario(to stream: AudioFileStream) throws {
        try scenario.play(parse: { try parse($0, resuming: $1, into: stream) }, mark: { try mark($0, on: stream) })
        try finish(stream)
    }

    private func parse(_ bytes: ArraySlice<UInt8>, resuming cut: FuzzScenario.Cut?, into stream: AudioFileStream) throws {
        let isFlagged = cut?.isFlagged ?? false
        let offset = cut.flatMap { $0.givesOffset ? Int64($0.resume) : nil }
        let jumps = offset.map { $0 != nextOffset } ?? false
        let start = offset ?? nextOffset
        if isFlagged || jumps { expectedDiscontinuity = (start, .input, jumps) }
        if jumps || (isFlagged && hasPackets) { stretchIsClosed = true }
        if stretchIsClosed || stretches.last.map({ $0.start + Int64($0.bytes.count) != start }) ?? true {
            stretches.append(Stretch(start: start, bytes: []))
            stretchIsClosed = false
        }
        stretches[stretches.count - 1].bytes += bytes
        try bytes.withUnsafeBytes { try stream.parse($0, discontinuity: isFlagged, offset: offset) }
        nextOffset = start + Int64(bytes.count)
        try checkAfterCall("parse of \(bytes.count) bytes at \(start)", on: stream)
    }

    private func mark(_ reason: Discontinuity.Reason, on stream: AudioFileStream) throws {
        expectedDiscontinuity = (nextOffset, reason, false)
        if hasPackets { stretchIsClosed = true }
        try stream.markDiscontinuity(reason)
        try checkAfterCall("markDiscontinuity(\(reason))", on: stream)
    }

    /// Finishes the stream, then checks that it is closed: calls are refused and report nothing.
    private func finish(_ stream: AudioFileStream) throws {
        try stream.finish()
        isFinished = true
        try checkAfterCall("finish()", on: stream)
        guard stream.bufferedByteCount == 0 else {
            throw InvariantViolation(description: "finish() left \(stream.bufferedByteCount) bytes buffered")
        }
        let closedCalls: [(String, () throws -> Void)] = [
            ("parse", { try stream.parse([0xFF]) }),
            ("markDiscontinuity", { try stream.markDiscontinuity(.input) }),
        ]
        for (name, call) in closedCalls {
            do {
                try call()
                throw InvariantViolation(description: "\(name) after finish() did not throw")
            } catch AudioFileStreamError.illegalOperation {
            }
        }
        try stream.finish()
        if let violation { throw violation }
    }

    private func checkAfterCall(_ call: @autoclosure () -> String, on stream: AudioFileStream) throws(InvariantViolation) {
        if let violation { throw violation }
        if let expected = expectedDiscontinuity {
            throw InvariantViolation(description: "\(call()) reported no \(expected.reason) discontinuity")
        }
        guard stream.bufferedByteCount <= StreamInvariants.bufferedByteLimit else {
            throw InvariantViolation(description: "after \(call()) the stream holds \(stream.bufferedByteCount) bytes, "
                + "over the \(StreamInvariants.bufferedByteLimit)-byte cap")
        }
    }

    private func fail(_ message: String) {
        if violation == nil { violation = InvariantViolation(description: message) }
    }

    private func receive(_ event: AudioFileStreamEvent) {
        guard violation == nil else { return }
        guard !isFinished else { return fail("an event after finish(): \(event)") }
        switch event {
        case .property(let id, let value):
            if id == .readyToProducePackets { isReady = true }
            events.append(.property(id, value))
        case .packets(let batch):
            receive(batch)
        case .metadata(let tag):
            receive(tag)
        case .discontinuity(let gap):
            receive(gap)
        case .warning(let warning):
            events.append(.warning(warning))
        }
    }

    private func receive(_ batch: PacketBatch) {
        guard isReady else { return fail("packets at \(batch.streamOffset) before ReadyToProducePackets") }
        let format = batch.format
        let descriptions: [AudioStreamPacketDescription]
        if let given = batch.descriptions {
            descriptions = Array(given)
        } else {
            let size = Int(format.bytesPerPacket)
            guard size > 0, batch.bytes.count % size == 0 else {
                return fail("a batch of \(batch.bytes.count) bytes without descriptions, \(format.bytesPerPacket) bytes per packet")
            }
            descriptions = stride(from: 0, to: batch.bytes.count, by: size).map {
                AudioStreamPacketDescription(startOffset: Int64($0), variableFramesInPacket: 0, dataByteSize: UInt32(size))
            }
        }
        guard !descriptions.isEmpty else { return fail("an empty batch at \(batch.streamOffset)") }
        guard !batch.isAssembled || descriptions.count == 1 else {
            return fail("an assembled batch at \(batch.streamOffset) of \(descriptions.count) packets")
        }
        var batchEnd: Int64 = 0
        for (position, description) in descriptions.enumerated() {
            let size = description.dataByteSize
            // Framing between packets (ADTS headers) stays in the batch, outside every packet.
            guard description.startOffset >= batchEnd, position > 0 || description.startOffset == 0, size > 0 else {
                return fail("batch at \(batch.streamOffset): packet \(position) is \(description.startOffset)+\(size), "
                    + "not a non-empty packet after the previous one")
            }
            batchEnd = description.startOffset + Int64(size)
            guard batchEnd <= batch.bytes.count else {
                return fail("batch at \(batch.streamOffset): packet \(position) ends at \(batchEnd), past the batch's "
                    + "\(batch.bytes.count) bytes")
            }
            let start = batch.streamOffset + description.startOffset
            let packetBytes = batch.bytes[Int(description.startOffset)..<Int(batchEnd)]
            // An assembled packet's first piece starts at its offset; its length there is the container's.
            let claimed = batch.isAssembled ? start..<start + 1 : start..<start + Int64(size)
            guard occupy(claimed, as: "packet", holding: batch.isAssembled ? packetBytes.prefix(1) : packetBytes)
            else { return }
            if case .uint32(let bound)? = try? stream?.property(.packetSizeUpperBound), size > bound {
                return fail("packet \(start)+\(size) is over PacketSizeUpperBound \(bound)")
            }
            if case .uint32(let largest)? = try? stream?.property(.maximumPacketSize), size > largest {
                return fail("packet \(start)+\(size) is over MaximumPacketSize \(largest)")
            }
            let follows = position == 0 && batch.followsDiscontinuity
            if position == 0 && follows != discontinuitySinceLastPacket {
                return fail("packet \(start)+\(size) says followsDiscontinuity \(follows), but "
                    + (follows ? "no discontinuity" : "a discontinuity") + " was reported since the last packet")
            }
            let frames = format.framesPerPacket != 0 ? format.framesPerPacket : description.variableFramesInPacket
            events.append(.packet(offset: start, size: size, frames: frames, followsDiscontinuity: follows))
        }
        guard batchEnd == batch.bytes.count else {
            return fail("batch at \(batch.streamOffset) has \(batch.bytes.count) bytes but its packets \(batchEnd)")
        }
        hasPackets = true
        discontinuitySinceLastPacket = false
    }

    private func receive(_ tag: MetadataEvent) {
        let offset = tag.offset
        let holders = stretches.reversed().filter { $0.holds(offset..<offset + 1) }
        guard !holders.isEmpty else { return fail("\(tag.metadata.source) tag at \(offset), where no byte was fed") }
        // A tag cut short by the end of its run of input (the end, or a discontinuity) reports what was fed.
        let lengths = holders.map { holder in
            min(StreamInvariants.minimumTagLength(holder.bytes[Int(offset - holder.start)...]),
                Int(holder.start + Int64(holder.bytes.count) - offset))
        }
        guard let length = zip(holders, lengths).first(where: { $0.holds(offset..<offset + Int64($1)) })?.1 else {
            return fail("\(tag.metadata.source) tag at \(offset) reported with less than its \(lengths[0]) bytes fed")
        }
        guard occupy(offset..<offset + Int64(length), as: "\(tag.metadata.source) tag", holding: nil) else { return }
        events.append(.metadata(offset: offset, tag.metadata))
    }

    private func receive(_ gap: Discontinuity) {
        discontinuitySinceLastPacket = true
        events.append(.discontinuity(gap))
        switch gap.reason {
        case .resync, .unsupportedFrame:
            guard gap.skippedBytes > 0 else { return fail("a \(gap.reason) at \(gap.offset) that skipped nothing") }
            _ = occupy(gap.offset - gap.skippedBytes..<gap.offset, as: "skipped run", holding: nil)
        case .input, .reconnect, .newSegment:
            guard let expected = expectedDiscontinuity, expected.offset == gap.offset, expected.reason == gap.reason,
                  gap.skippedBytes >= 0 else {
                return fail("an unexpected \(gap.reason) discontinuity at \(gap.offset), \(gap.skippedBytes) bytes skipped")
            }
            expectedDiscontinuity = nil
            // A new run of input starts here, unless the stream kept what it held (nothing before the first packet).
            if hasPackets || expected.jumps { occupiedEnd = gap.offset }
        }
    }

    /// Claims `range` for a packet, tag or skipped run: it must not start before what was reported last ends,
    /// and a packet must lie in bytes fed at those offsets and hold them. Returns false after a failure.
    private func occupy(_ range: Range<Int64>, as what: String, holding bytes: Slice<UnsafeRawBufferPointer>?) -> Bool {
        if let bytes {
            let holders = stretches.filter { $0.holds(range) }
            guard !holders.isEmpty else {
                fail("\(what) \(range) lies outside the bytes fed")
                return false
            }
            guard holders.contains(where: { $0.bytes(in: range).elementsEqual(bytes) }) else {
                fail("\(what) \(range) holds other bytes than were fed at those offsets")
                return false
            }
        }
        if let occupiedEnd, range.lowerBound < occupiedEnd {
            fail("\(what) \(range) starts before the end (\(occupiedEnd)) of the packet, tag or skipped run before it")
            return false
        }
        occupiedEnd = range.upperBound
        return true
    }
}
