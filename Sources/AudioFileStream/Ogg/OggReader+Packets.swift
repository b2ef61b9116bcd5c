/// The packets of a page: cut from its lacing values, assembled when continued across pages, taken as headers or
/// counted as audio, and delivered once the page's granule position is checked.
extension OggReader {
    /// A packet of the page being read, delivered once the page's granule position is checked.
    struct PagePacket {
        /// Its position in the input; unused when assembled.
        var start: Int
        var size: Int
        /// Its frames, or nil when it is not a valid audio packet and is skipped.
        var frames: Int?
        var isAssembled: Bool
        /// The stream offsets of its first byte and of the byte after its last.
        var offset: Int64
        var end: Int64
    }

    /// Cuts the page's packets from segment `firstSegment` on, checks its granule position against their frames,
    /// then delivers them; a packet left open is kept for the next page. `stream` is the followed one, whose page
    /// it is.
    mutating func takePackets(of page: OggPage, _ stream: OggLogicalStream, at position: Int, from firstSegment: Int,
                              in input: ReaderInput, into output: ParserOutput) {
        let bytes = input.bytes
        pagePackets.removeAll(keepingCapacity: true)
        var start = position + page.headerLength
        for segment in 0..<firstSegment { start += page.lacing(segment, in: bytes, at: position) }
        var size = 0
        var continues = page.isContinued && firstSegment == 0
        var audioEnded = false
        for segment in firstSegment..<page.segmentCount {
            let lacing = page.lacing(segment, in: bytes, at: position)
            size += lacing
            guard lacing < 255 else { continue }
            let end = input.offset + Int64(start + size)
            if continues {
                if !partial.isEmpty, appendPiece(bytes, start..<start + size, resumingAt: end, into: output) {
                    swap(&partial, &assembled)
                    partial.removeAll(keepingCapacity: true)
                    audioEnded = assembled.withUnsafeBytes {
                        takePacket($0, of: stream, start: start, offset: partialOffset, end: end, isAssembled: true,
                                   into: output)
                    } || audioEnded
                } else {
                    // The start of this packet was missed or dropped.
                    skip.add(size)
                    skip.report(resumingAt: end, to: output)
                }
                continues = false
            } else {
                audioEnded = takePacket(UnsafeRawBufferPointer(rebasing: bytes[start..<start + size]), of: stream,
                                        start: start, offset: input.offset + Int64(start), end: end,
                                        isAssembled: false, into: output) || audioEnded
            }
            start += size
            size = 0
        }
        let offset = input.offset + Int64(position)
        if audioEnded, let table = stream.check(granulePosition: page.granulePosition, isLast: page.isLast,
                                                at: offset, into: output) {
            output.announce(.packetTableInfo, .packetTableInfo(table))
        }
        deliverPagePackets(into: output)
        if page.isLast { followed.end() }
        // The last segment is a full one: the packet goes on on the next page.
        guard page.segmentCount > firstSegment, page.lacing(page.segmentCount - 1, in: bytes, at: position) == 255
        else { return }
        let end = input.offset + Int64(start + size)
        if continues {
            guard !partial.isEmpty else {
                skip.add(size)
                return skip.report(resumingAt: end, to: output)
            }
        } else {
            partial.removeAll(keepingCapacity: true)
            partialOffset = input.offset + Int64(start)
            if size == 0 { return }
        }
        _ = appendPiece(bytes, start..<start + size, resumingAt: end, into: output)
    }

    /// Adds a piece to the open packet; drops the packet, reporting it, when it would grow past `largestPacket`.
    private mutating func appendPiece(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, resumingAt end: Int64,
                                      into output: ParserOutput) -> Bool {
        guard partial.count + range.count <= Self.largestPacket else {
            skip.add(range.count)
            dropPartialPacket()
            skip.report(resumingAt: end, to: output)
            return false
        }
        partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        return true
    }

    /// A whole packet of the followed stream, `stream`: a header is taken at once, an audio packet counted and
    /// held for delivery. Returns true for an audio packet.
    private mutating func takePacket(_ packet: UnsafeRawBufferPointer, of stream: OggLogicalStream, start: Int,
                                     offset: Int64, end: Int64, isAssembled: Bool, into output: ParserOutput) -> Bool {
        // The phase alone is looked at: a packet costs no reference counting.
        switch followed {
        case .none, .ended:
            return false
        case .headers:
            let isAudio = takeHeader(packet, at: offset, into: output)
            if isAssembled, let resume = skipInsidePacket {
                skip.report(resumingAt: resume, to: output)
                skipInsidePacket = nil
            }
            guard isAudio else { return false }
        case .audio:
            break
        }
        let frames = stream.countFrames(ofAudio: packet)
        pagePackets.append(PagePacket(start: start, size: packet.count, frames: frames, isAssembled: isAssembled,
                                      offset: offset, end: end))
        return frames != nil
    }

    /// Gives a header packet to the codec; returns true when it is the first audio packet instead.
    private mutating func takeHeader(_ packet: UnsafeRawBufferPointer, at offset: Int64,
                                     into output: ParserOutput) -> Bool {
        guard let stream = followed.stream else { return false }
        let step = stream.codec.take(header: packet)
        switch step {
        case .needsMore, .complete:
            // Reported where it is, so that reports stay in stream order: before the link's format.
            if let metadata = stream.codec.metadata(in: packet, limits: limits) {
                output.metadata(metadata, at: offset)
            }
            if step == .complete { announceHeaders(into: output) }
            return false
        case .audio:
            announceHeaders(into: output)
            return true
        case .invalid:
            // Ended, so that a new logical stream may begin; its pages are ignored from here on.
            followed.end()
            if ignored.count < Self.ignoredStreamLimit { ignored.insert(stream.serial) }
            output.warning(.otherStreamIgnored, at: offset, "Ogg logical stream \(stream.serial) is ignored: its "
                + "header packet at \(offset) is not valid")
            return false
        }
    }

    /// Every header of the followed stream is read: its format and magic cookie are announced, again for each new
    /// link of a chain (whose comments came as their headers did).
    private mutating func announceHeaders(into output: ParserOutput) {
        followed.startAudio()
        guard let stream = followed.stream else { return }
        if !hasAnnouncedFileFormat {
            hasAnnouncedFileFormat = true
            output.announce(.fileFormat, .fileType(.ogg))
            output.measuresBitRate = true
        }
        output.announce(.dataFormat, .format(stream.codec.format), force: true)
        output.announce(.magicCookieData, .data(stream.codec.magicCookie), force: true)
    }

    /// Delivers the packets of the page in order, skipping those that are not valid audio.
    private mutating func deliverPagePackets(into output: ParserOutput) {
        for packet in pagePackets {
            guard let frames = packet.frames else {
                skip.add(packet.size)
                skip.report(resumingAt: packet.end, to: output)
                skipInsidePacket = nil
                continue
            }
            output.announceReady(dataOffset: packet.offset)
            if packet.isAssembled {
                assembled.withUnsafeBytes { output.assembledPacket($0, at: packet.offset, frames: frames) }
                if let offset = skipInsidePacket {
                    skip.report(resumingAt: offset, to: output)
                    skipInsidePacket = nil
                }
            } else {
                output.packet(at: packet.start, size: packet.size, frames: frames, variableFrames: true)
            }
        }
    }
}
