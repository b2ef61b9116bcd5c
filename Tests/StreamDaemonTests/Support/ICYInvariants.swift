import AudioFileStream
@testable import AudioStreamProtocol
import FixtureSupport
@testable import StreamDaemon

/// One run of the ICY fuzz target (Fuzz/ICY), decoded from libFuzzer's input: bytes 0–1 are `metaint − 1`
/// (big-endian), bytes 2–3 the chunk seed; the rest is an ICY body as a station would send it. The tests replay
/// the committed findings (Tests/Fixtures/fuzz-icy) and the ICY fixtures the same way.
struct ICYScenario: CustomStringConvertible {
    static let headerLength = 4
    var metaint: Int
    var chunkSeed: UInt64
    var body: [UInt8]

    init(_ input: UnsafeRawBufferPointer) {
        var header = Array(input.prefix(Self.headerLength))
        header += repeatElement(0, count: Self.headerLength - header.count)
        metaint = (Int(header[0]) << 8 | Int(header[1])) + 1
        chunkSeed = UInt64(header[2]) << 8 | UInt64(header[3])
        body = Array(input.dropFirst(Self.headerLength))
    }

    init(metaint: Int, chunkSeed: UInt64, body: [UInt8]) {
        self.metaint = metaint
        self.chunkSeed = chunkSeed
        self.body = body
    }

    var description: String { "metaint \(metaint), chunk seed \(chunkSeed), \(body.count) bytes" }
}

/// What must hold for any ICY body, whatever a station sends: the demuxer splits it as the protocol says in any
/// chunking, and every text made from what it found (the `metadata` event's JSON, the block relayed to listeners)
/// is built without a trap and reads back as it was meant.
enum ICYInvariants {
    struct Broken: Error, CustomStringConvertible {
        let description: String
    }

    /// Audio bytes and the complete blocks of a body, in order.
    struct Split: Equatable {
        var audio: [UInt8] = []
        var blocks: [[UInt8]] = []
    }

    static func check(_ scenario: ICYScenario) throws {
        let expected = referenceSplit(scenario.body, metaint: scenario.metaint)
        var random = TestRandom(seed: scenario.chunkSeed)
        let chunked = split(scenario.body, metaint: scenario.metaint) { Int(random.next() % 4097) }
        let whole = split(scenario.body, metaint: scenario.metaint) { .max }
        guard whole == expected, chunked == expected else {
            throw Broken(description: "the demuxer's split differs from the protocol's (whole: \(whole == expected))")
        }
        for block in expected.blocks {
            guard block.count % 16 == 0, (16...ICYDemuxer.maximumBlockSize).contains(block.count) else {
                throw Broken(description: "a block of \(block.count) bytes")
            }
            if let metadata = block.withUnsafeBytes({ ICYMetadata(block: $0) }) {
                try checkJSON(metadata.json(offset: Int64(expected.audio.count)).text)
                if let playing = NowPlaying(metadata) { try checkRelayed(playing) }
            }
            // The raw bytes as a title and a URL, NULs and broken sequences included.
            guard var playing = NowPlaying(ICYMetadata(text: "StreamTitle='';")) else {
                throw Broken(description: "an empty title gave no NowPlaying")
            }
            playing.title = String(decoding: block, as: UTF8.self)
            playing.url = block.withUnsafeBytes { Windows1252.decode($0) }
            try checkRelayed(playing)
        }
    }

    /// The protocol, read plainly from the whole body: `metaint` audio bytes, a length byte L, L × 16 bytes of
    /// text; a block cut short by the end of the body is not reported.
    static func referenceSplit(_ body: [UInt8], metaint: Int) -> Split {
        var result = Split()
        var position = 0
        while position < body.count {
            let audioEnd = min(position + metaint, body.count)
            result.audio += body[position..<audioEnd]
            position = audioEnd
            guard position < body.count else { break }
            let size = Int(body[position]) * 16
            position += 1
            guard size > 0 else { continue }
            guard position + size <= body.count else { break }
            result.blocks.append(Array(body[position..<position + size]))
            position += size
        }
        return result
    }

    /// The body through `ICYDemuxer` in chunks of the sizes `nextSize` draws (0 included).
    static func split(_ body: [UInt8], metaint: Int, nextSize: () -> Int) -> Split {
        var demuxer = ICYDemuxer(metaint: metaint)
        var result = Split()
        body.withUnsafeBytes { bytes in
            var position = 0
            while position < bytes.count {
                let end = position + min(nextSize(), bytes.count - position)
                demuxer.split(UnsafeRawBufferPointer(rebasing: bytes[position..<end])) {
                    result.audio += $0
                } metadata: {
                    result.blocks.append(Array($0))
                }
                position = end
            }
        }
        return result
    }

    /// JSON text holds no raw control character: each is escaped, so a title can never split a line of output.
    private static func checkJSON(_ text: String) throws {
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw Broken(description: "a raw control character in \(text.debugDescription)")
        }
    }

    /// The block listeners get is whole, fits its length byte, passes through a demuxer intact, holds no control
    /// character (its NUL padding aside) and no more fields than were set, and gives back the title as
    /// `ICYMetadata.carried` writes it wherever it can be read back unambiguously (no mark that would join the
    /// opening quote, short enough for a block).
    private static func checkRelayed(_ playing: NowPlaying) throws {
        let block = ICYMetadataBlock.encode(playing)
        guard let length = block.first, length > 0, block.count == 1 + Int(length) * 16,
              block.count <= 1 + ICYMetadataBlock.maximumTextBytes
        else { throw Broken(description: "a relayed block of \(block.count) bytes, length byte \(block.first ?? 0)") }
        guard block.dropFirst().starts(with: "StreamTitle='".utf8),
              let text = String(validating: block.dropFirst().prefix { $0 != 0 }, as: UTF8.self),
              block.dropFirst(1 + text.utf8.count).allSatisfy({ $0 == 0 })
        else { throw Broken(description: "a relayed block that is not StreamTitle='…' in UTF-8, then padding") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Broken(description: "a control character in the relayed block \(text.debugDescription)")
        }
        let relayed = split([0x55] + block + [0x55], metaint: 1) { .max }
        guard relayed == Split(audio: [0x55, 0x55], blocks: [Array(block.dropFirst())]) else {
            throw Broken(description: "a relayed block that a demuxer does not read back whole")
        }
        let readBack = block.dropFirst().withUnsafeBytes { ICYMetadata(block: $0) }
        guard let readBack, readBack.fields.count <= (playing.url == nil ? 1 : 2) else {
            throw Broken(description: "the relayed block \(text.debugDescription) holds more fields than were set")
        }
        let carried = ICYMetadata.carried(playing.title)
        let readable = ("'" + carried).first == "'"
            && carried.utf8.count <= ICYMetadataBlock.maximumTextBytes - "StreamTitle='';".utf8.count
        if readable, readBack.streamTitle != carried {
            throw Broken(description: "title \(carried.debugDescription) read back as "
                         + "\(String(describing: readBack.streamTitle).debugDescription)")
        }
    }
}
