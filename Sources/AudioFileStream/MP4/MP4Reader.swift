/// Reads an ISO base media file (MP4, M4A, M4B, QuickTime MOV) as a stream: the first audio track's packets,
/// exactly where its sample table puts them, with its format, cookie, gapless information and tags.
///
/// Top-level boxes are read in stream order. The movie box (`moov`) is buffered whole, up to `largestMovie`
/// (64 MiB; a larger one makes the file invalid), and must come before the media data (`mdat`): a stream whose
/// `mdat` comes first fails with `AudioFileStreamError.notOptimized`, saying how to move the `moov` to the
/// front. Inside `mdat` the followed track's samples are given as packets by walking the sample table; the
/// bytes between them (other tracks' samples) are the container's and are passed over silently. A fragmented
/// file (`mvex` in the `moov`) goes on with `moof`/`mdat` pairs, each `moof` buffered whole (up to
/// `largestFragmentHeader`) and giving the samples of the `mdat` after it. Other top-level boxes (`ftyp`,
/// `free`, `sidx`, `styp` …) stream past unread. Other tracks are reported once each (`otherStreamIgnored`).
///
/// A box whose size is smaller than its header, boxes nested deeper than `MP4Box.maximumDepth`, tables whose
/// counts claim more entries than their boxes hold, samples out of stream order or outside their `mdat`, a
/// `moov` cut short: each fails the stream with `invalidFile` and a message; nothing is allocated by a claimed
/// count before the bytes holding it are there. After a discontinuity with the sample table known (a seek),
/// packets go on from the first sample at or after the new offset; otherwise the new bytes are taken to start
/// a box.
struct MP4Reader: FormatReader {
    /// The largest `moov` buffered; the whole box must be held to be read.
    static let largestMovie = 64 << 20
    /// The largest `moof` buffered.
    static let largestFragmentHeader = 16 << 20
    /// The command that moves the movie box to the front, quoted in the `notOptimized` message.
    static let faststartCommand = "ffmpeg -i in.m4a -c copy -movflags +faststart out.m4a"

    enum State {
        case boxHeader
        /// A `moov` or `moof`, read once all its bytes are there.
        case wholeBox(MP4BoxHeader, size: Int)
        /// Inside a media data box that ends at this stream offset, or nil when it runs to the end.
        case mediaData(end: Int64?)
        /// After a discontinuity with the sample table known: packets go on from the new offset.
        case seeking
        case failed
    }

    let limits: MetadataLimits
    var state = State.boxHeader
    var fileType = AudioFileType.mpeg4
    var movie: MP4Movie?
    /// The followed track, once the movie is read.
    var track: MP4Track?
    /// The samples being given: the track's table, or the current fragment's.
    var table = MP4SampleTable()
    var cursor = MP4SampleCursor(over: MP4SampleTable())
    /// Frames of every packet when the codec's count is constant; 0 when each packet's comes from the table.
    var constantFrames = 0
    /// The gapless segments of the track's edits after the first, each announced at its first sample.
    var laterSegments: ArraySlice<MP4EditSegment> = []

    init(limits: MetadataLimits) {
        self.limits = limits
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        let bytes = input.bytes
        var position = 0
        while position < bytes.count || input.isEndOfInput {
            let offset = input.offset + Int64(position)
            switch state {
            case .boxHeader:
                switch MP4BoxHeader.read(bytes, at: position) {
                case .needMore(let count) where !input.isEndOfInput:
                    return ReadProgress(consumed: position, needed: count)
                case .needMore:
                    if position < bytes.count {
                        output.discontinuity(at: input.offset + Int64(bytes.count),
                                             skippedBytes: Int64(bytes.count - position), reason: .resync)
                    }
                    return ReadProgress(consumed: bytes.count, needed: 0)
                case .invalid(let reason):
                    return fail(.invalidFile, at: offset, "\(reason), at offset \(offset)", input, output)
                case .header(let header) where header.type == "ftyp" && bytes.count - position < 12
                    && !input.isEndOfInput:
                    // The major brand, which names the file type, follows the header.
                    return ReadProgress(consumed: position, needed: 12)
                case .header(let header):
                    if let progress = enter(header, at: position, in: input, output: output) { return progress }
                    if case .mediaData = state { position += header.headerLength }
                }
            case .wholeBox(let header, let size):
                if let progress = readWholeBox(header, size: size, at: position, in: input, output: output) {
                    return progress
                }
                position += size
            case .mediaData(let end):
                let progress = readMedia(input, from: position, end: end, output: output)
                if progress.needed > 0 || output.failure != nil || progress.consumed == bytes.count {
                    return progress
                }
                position = progress.consumed
            case .seeking:
                cursor = MP4SampleCursor(over: table)
                cursor.seek(to: offset, over: table)
                state = .mediaData(end: nil)
            case .failed:
                return ReadProgress(consumed: bytes.count, needed: 0)
            }
        }
        return ReadProgress(consumed: position, needed: 0)
    }

    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        if case .failed = state { return }
        // A fragment's samples end with it: a seek lands on a box (a moof), as DASH and HLS segments start.
        state = track != nil && movie?.isFragmented == false ? .seeking : .boxHeader
    }

    /// Starts reading the top-level box whose header is at `position`; returns the progress when the reader stops
    /// there: the box failed the stream, or the driver passes over it (to the end of the stream when its size
    /// says so).
    private mutating func enter(_ header: MP4BoxHeader, at position: Int, in input: ReaderInput,
                                output: ParserOutput) -> ReadProgress? {
        let offset = input.offset + Int64(position)
        switch header.type {
        case "moov", "moof":
            let cap = header.type == "moov" ? Self.largestMovie : Self.largestFragmentHeader
            guard let size = header.size else {
                return fail(.invalidFile, at: offset, "the '\(header.type)' box at offset \(offset) does not state its size", input, output)
            }
            guard size <= Int64(cap) else {
                return fail(.invalidFile, at: offset, "the '\(header.type)' box at offset \(offset) has \(size) bytes, more than "
                    + "the \(cap) this parser holds", input, output)
            }
            if header.type == "moof" && movie?.isFragmented != true {
                return fail(.invalidFile, at: offset, "a movie fragment at offset \(offset) comes before a movie box that "
                    + "announces fragments", input, output)
            }
            state = .wholeBox(header, size: Int(size))
        case "mdat":
            guard movie != nil else {
                return fail(.notOptimized, at: offset, "the media data (mdat) at offset \(offset) comes before the movie box "
                    + "(moov) that says where its packets are, so the file cannot be read as a stream; read it "
                    + "from a file, or move the moov to the front: \(Self.faststartCommand)", input, output)
            }
            guard track != nil else {
                return fail(.unsupportedDataFormat, at: offset, "the movie has no audio track this parser reads ("
                    + (movie!.tracks.map { "'\($0.handler)' \($0.codecName)" }.joined(separator: ", ")) + ")", input, output)
            }
            state = .mediaData(end: header.size.map { offset + $0 })
        default:
            if header.type == "ftyp", input.bytes.count - position >= 12 {
                fileType = Self.type(ofBrand: FourCharCode(rawValue: input.bytes.bigEndianUInt32(at: position + 8)))
            }
            let body = header.size.map { $0 - Int64(header.headerLength) } ?? .max
            return ReadProgress(consumed: position + header.headerLength, needed: 0, skip: .bytes(body))
        }
        return nil
    }

    /// Reads the `moov` or `moof` of `size` bytes at `position` once all its bytes are there; returns the progress
    /// when the reader stops there: it needs more bytes, or the box failed the stream.
    private mutating func readWholeBox(_ header: MP4BoxHeader, size: Int, at position: Int, in input: ReaderInput,
                                       output: ParserOutput) -> ReadProgress? {
        let bytes = input.bytes
        let offset = input.offset + Int64(position)
        guard bytes.count - position >= size else {
            guard input.isEndOfInput else { return ReadProgress(consumed: position, needed: size) }
            return fail(.invalidFile, at: offset, "the box at offset \(offset) claims \(size) bytes but the stream ends "
                + "after \(bytes.count - position)", input, output)
        }
        let content = MP4Box(type: header.type, start: position,
                             content: position + header.headerLength..<position + size)
        do {
            if header.type == "moov" {
                try takeMovie(content, in: input, output: output)
            } else {
                try takeFragment(content, in: input)
            }
        } catch {
            return fail(.invalidFile, at: offset, "\(error.reason), in the '\(header.type)' box at offset \(offset)", input, output)
        }
        state = .boxHeader
        return nil
    }

    /// The file type a major brand names: M4A and M4B audio books as Apple types them, else MPEG-4.
    private static func type(ofBrand brand: FourCharCode) -> AudioFileType {
        switch brand {
        case "M4A ": .m4a
        case "M4B ": .m4b
        default: .mpeg4
        }
    }

    /// Ends the stream with `error`, met at `offset`: everything given is consumed and `parse` throws.
    mutating func fail(_ error: AudioFileStreamError, at offset: Int64, _ message: String, _ input: ReaderInput,
                       _ output: ParserOutput) -> ReadProgress {
        state = .failed
        output.fail(error, at: offset, message)
        return ReadProgress(consumed: input.bytes.count, needed: 0)
    }
}
