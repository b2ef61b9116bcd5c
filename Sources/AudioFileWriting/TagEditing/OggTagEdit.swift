import AudioFileStream

/// Edits the comment header of every link of an Ogg file (Opus' OpusTags, Vorbis' comment header, the
/// VORBIS_COMMENT block of FLAC in Ogg), as a chain's reader shows each link's own: its header packets are paged
/// anew, and the link's pages after them copied with their sequence numbers shifted by the pages the header
/// gained or lost. Audio pages keep their packets and granule positions.
enum OggTagEdit {
    static func edit(_ bytes: UnsafeRawBufferPointer, current: NormalizedTags, edits: TagEdits) throws -> EditedFile {
        try edits.checkRawKeys(allowed: [.vorbis], in: "Ogg")
        var pieces: [EditedFile.Piece] = []
        var start = 0
        repeat {
            let headers = try OggHeaderPackets(bytes, at: start)
            let pages = try editedHeaderPages(headers, current: current, edits: edits)
            let newPages = pages.withUnsafeBytes { pages in
                var count: UInt32 = 0
                var offset = 0
                while let length = OggPageRenumbering.pageLength(pages[...], at: offset) {
                    count += 1
                    offset += length
                }
                return count
            }
            let end = OggPageRenumbering.nextLink(in: bytes[headers.end...], after: headers.serial) ?? bytes.count
            pieces += [.bytes(pages),
                       .oggPages(headers.end..<end, serial: headers.serial, shift: newPages &- headers.nextSequence)]
            start = end
        } while start < bytes.count
        return EditedFile(pieces: pieces)
    }

    /// The pages of a link's header packets with its comments edited.
    private static func editedHeaderPages(_ headers: OggHeaderPackets, current: NormalizedTags,
                                          edits: TagEdits) throws -> [UInt8] {
        var packets = headers.packets
        let comment = packets[1]
        let prefixLength: Int
        switch headers.codec {
        case .opus: prefixLength = 8
        case .vorbis: prefixLength = 7
        case .flac: prefixLength = 4
        }
        guard comment.count >= prefixLength, headers.codec != .flac || comment[0] & 0x7F == 4 else {
            throw TagEditError.damaged("the Ogg stream's second header is not its comments")
        }
        var block = try VorbisCommentEdit(block: comment[prefixLength...])
        try block.apply(edits, current: current, picturesInComments: true)
        var prefix = Array(comment[..<prefixLength])
        let body = block.block
        if headers.codec == .flac {
            guard body.count <= FLACMetadataBlock.largestBody else { throw TagEditError.badValue("the comments are too large for FLAC") }
            prefix = [prefix[0]] + [UInt8](bigEndian: UInt32(body.count)).suffix(3)
        }
        packets[1] = prefix + body
        var writer = OggPageWriter(serial: headers.serial)
        var pages: [UInt8] = []
        packets[0].withUnsafeBytes { writer.append($0, granulePosition: 0, to: &pages) }
        for packet in packets.dropFirst() { packet.withUnsafeBytes { writer.add($0, granulePosition: 0, to: &pages) } }
        writer.endPage(to: &pages)
        return pages
    }
}

/// The header packets of a link of an Ogg file, which must end a page (RFC 7845 §3, Vorbis I §A.2, the
/// FLAC-in-Ogg mapping all ask for it).
struct OggHeaderPackets {
    enum Codec { case opus, vorbis, flac }

    let codec: Codec
    let serial: UInt32
    var packets: [[UInt8]] = []
    /// Where the first page after the headers starts.
    var end = 0
    /// The sequence number of that page.
    var nextSequence: UInt32 = 0

    /// Reads the headers of the link whose first page is at `start`.
    init(_ bytes: UnsafeRawBufferPointer, at start: Int) throws {
        let all = bytes[...]
        guard OggPageRenumbering.pageLength(all, at: start) != nil else {
            throw TagEditError.damaged(start == 0 ? "the file does not start with an Ogg page"
                                                  : "the chain's link at \(start) does not start with an Ogg page")
        }
        serial = bytes.loadLittleEndian(at: start + 14)
        var wanted = 1
        var packet: [UInt8] = []
        var codec: Codec?
        var offset = start
        while packets.count < wanted {
            guard let length = OggPageRenumbering.pageLength(all, at: offset) else {
                throw TagEditError.damaged("the Ogg headers end before their last packet")
            }
            // Readers pass over a page whose CRC fails: its packets are not the headers they read.
            guard OggPageRenumbering.crcHolds(all[offset..<offset + length]) else {
                throw TagEditError.damaged("an Ogg header page at \(offset) fails its CRC")
            }
            let pageSerial: UInt32 = bytes.loadLittleEndian(at: offset + 14)
            guard pageSerial == serial else {
                throw TagEditError.unsupportedFile("an Ogg file of several streams at once is not edited")
            }
            let segments = Int(bytes[offset + 26])
            var bodyOffset = offset + 27 + segments
            for (index, lace) in bytes[offset + 27..<offset + 27 + segments].enumerated() {
                packet += bytes[bodyOffset..<bodyOffset + Int(lace)]
                bodyOffset += Int(lace)
                guard lace < 255 else { continue }
                if packets.isEmpty {
                    (codec, wanted) = try Self.codec(of: packet)
                }
                packets.append(packet)
                packet = []
                if packets.count == wanted, index != segments - 1 {
                    throw TagEditError.damaged("audio shares the last page of the Ogg headers")
                }
            }
            nextSequence = bytes.loadLittleEndian(at: offset + 18) &+ 1
            offset += length
        }
        self.codec = codec!
        end = offset
    }

    /// The codec of a stream's first packet, and the header packets it has.
    private static func codec(of packet: [UInt8]) throws -> (Codec, Int) {
        if packet.starts(with: "OpusHead".utf8) { return (.opus, 2) }
        if packet.starts(with: [1] + Array("vorbis".utf8)) { return (.vorbis, 3) }
        // 0x7F "FLAC", the mapping's version, then the count of header packets after this one (0: unknown).
        if packet.starts(with: [0x7F] + Array("FLAC".utf8)), packet.count >= 9 {
            let count = Int(packet[7]) << 8 | Int(packet[8])
            guard count > 0 else { throw TagEditError.unsupportedFile("FLAC in Ogg that does not count its headers is not edited") }
            return (.flac, count + 1)
        }
        throw TagEditError.unsupportedFile("only Opus, Vorbis and FLAC in Ogg are edited")
    }
}
