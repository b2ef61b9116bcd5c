import AudioFileStream

/// The APEv2 tag ending an MPEG audio or ADTS file (before an ID3v1 trailer, if any), edited beside the ID3v2
/// tag as the ID3v1 trailer is: the items of every common key the edit names go, so that readers take a key set
/// from the ID3v2 tag, and a key removed is gone from both. Its other items are kept byte for byte.
enum APEv2TagEdit {
    /// The tag ending at `end` of `bytes` with `edits` applied, and where it lies; nil when no tag the parser
    /// reads ends there. The parser reads an APEv2 tag from its header, so a footer alone, or one whose header is
    /// not where its size puts it (before `start`, in the audio or a leading tag, or nowhere), is left as it is:
    /// rewriting bytes the parser reads as junk could make packets of them.
    /// - Throws: `TagEditError.damaged` when its items run past it.
    static func edited(_ bytes: UnsafeRawBufferPointer, endingAt end: Int, from start: Int, edits: TagEdits) throws
        -> (range: Range<Int>, tag: [UInt8])? {
        let length = APEv2Header.length
        guard end - length >= start,
              let footer = APEv2Header(UnsafeRawBufferPointer(rebasing: bytes[end - length..<end])), !footer.isHeader,
              footer.size >= length, footer.size <= end - start - length
        else { return nil }
        let itemsStart = end - footer.size
        let tagStart = itemsStart - length
        guard let header = APEv2Header(UnsafeRawBufferPointer(rebasing: bytes[tagStart..<itemsStart])), header.isHeader,
              header.size == footer.size, header.itemCount == footer.itemCount else { return nil }
        let named = (edits.set.map(\.key) + edits.remove).compactMap { key -> CommonTagKey? in
            if case .common(let common) = key { common } else { nil }
        }
        var items: [UInt8] = []
        var kept = 0
        var offset = itemsStart
        for _ in 0..<footer.itemCount {
            guard offset + APEv2Item.headerLength < end - length,
                  let zero = bytes[(offset + APEv2Item.headerLength)..<(end - length)].firstIndex(of: 0) else {
                throw TagEditError.damaged("an APEv2 item runs past its tag")
            }
            let item = APEv2Item(header: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + APEv2Item.headerLength]))
            let itemEnd = zero + 1 + item.valueSize
            guard itemEnd <= end - length else { throw TagEditError.damaged("an APEv2 item runs past its tag") }
            let key = String(decoding: bytes[(offset + APEv2Item.headerLength)..<zero], as: UTF8.self)
            if !holds(key, anyOf: named) {
                items += bytes[offset..<itemEnd]
                kept += 1
            }
            offset = itemEnd
        }
        let edges = { (isHeader: Bool) -> [UInt8] in
            var edge = Array("APETAGEX".utf8)
            edge.append(littleEndian: UInt64(footer.version), count: 4)
            edge.append(littleEndian: UInt64(items.count + length), count: 4)
            edge.append(littleEndian: UInt64(kept), count: 4)
            edge.append(littleEndian: UInt64(isHeader ? footer.flags | 1 << 29 : footer.flags & ~(1 << 29)), count: 4)
            return edge + [UInt8](repeating: 0, count: 8)
        }
        return (tagStart..<end, edges(true) + items + edges(false))
    }

    /// Whether readers take the item `key` for one of `keys`: by the parser's own table of keys.
    private static func holds(_ key: String, anyOf keys: [CommonTagKey]) -> Bool {
        let tags = MetadataNormalizer.tags(from: [RawTagField(key: key, value: .text(["1"]))])
        return keys.contains { $0.value(in: tags) != nil }
    }
}
