extension MP4Reader {
    /// Reads the movie box whole: follows its first audio track, announces what the stream is and its tags,
    /// and reports the tracks not followed.
    /// - Throws: `MP4Invalid` when the box or the followed track's sample table is broken; the track's format and
    ///   length are announced before a broken table fails the stream.
    mutating func takeMovie(_ moov: MP4Box, in input: ReaderInput, output: ParserOutput) throws(MP4Invalid) {
        let movie = try MP4Movie(moov, in: input.bytes, limits: limits)
        let offset = input.offset + Int64(moov.start)
        self.movie = movie
        output.announce(.fileFormat, .fileType(fileType))
        output.measuresBitRate = true
        let followed = movie.audioTrack
        for other in movie.tracks where other.id != followed?.id || other.handler != "soun" {
            output.warning(.otherStreamIgnored, at: offset, "track \(other.id) ('\(other.handler)', \(other.codecName)) "
                + "is ignored: " + (followed.map { "audio track \($0.id) is followed" }
                    ?? "it is not audio this parser reads"))
        }
        if let followed, let format = followed.format {
            // What the moov states is announced even when its sample table cannot place a packet.
            let segments = movie.segments(of: followed)
            announce(format, of: followed, table: segments.first?.table, output: output)
            if let damage = followed.tableDamage { throw damage }
            try followed.table.validate(startingAtOrAfter: 0)
            track = followed
            table = followed.table.moved(by: input.fileStart)
            cursor = MP4SampleCursor(over: table)
            constantFrames = format.hasConstantFrames ? Int(format.format.framesPerPacket) : 0
            laterSegments = segments.dropFirst()
        }
        for (position, metadata) in movie.metadata {
            output.metadata(metadata, at: input.offset + Int64(position))
        }
    }

    /// The followed track's header properties: format, cookie, layout, the totals its table states and the packet
    /// table of its first segment.
    private func announce(_ format: MP4AudioFormat, of track: MP4Track, table: PacketTableInfo?, output: ParserOutput) {
        output.announce(.dataFormat, .format(format.format))
        if let layout = format.channelLayout {
            output.announce(.formatList, .formatList(format.extensionLayers
                + [AudioFormatListItem(format: format.format, channelLayoutTag: layout.tag)]))
            output.announce(.channelLayout, .channelLayout(layout))
        }
        if let cookie = format.magicCookie { output.announce(.magicCookieData, .data(cookie)) }
        if track.table.sampleCount > 0 {
            let sizes = track.table
            let byteCount = sizes.sizes.isEmpty ? Int64(sizes.constantSize) * Int64(sizes.sampleCount)
                : sizes.sizes.reduce(Int64(0)) { $0 + Int64($1) }
            output.announce(.audioDataPacketCount, .uint64(UInt64(sizes.sampleCount)))
            output.announce(.audioDataByteCount, .uint64(UInt64(byteCount)))
            output.announce(.packetSizeUpperBound, .uint32(UInt32(sizes.sizes.max().map(Int.init) ?? sizes.constantSize)))
        }
        if let table { output.announce(.packetTableInfo, .packetTableInfo(table)) }
    }

    /// The sample under the cursor begins a later edit's segment: the format is announced again, as a chain's
    /// next link does, so that decoders start afresh, and the segment's packet table after it.
    mutating func startSegment(output: ParserOutput) {
        var segment = laterSegments.removeFirst()
        while let next = laterSegments.first, next.firstSample <= cursor.sample { segment = laterSegments.removeFirst() }
        guard case .format(let format)? = output.properties[.dataFormat] else { return }
        output.announce(.dataFormat, .format(format), force: true)
        output.announce(.packetTableInfo, .packetTableInfo(segment.table), force: true)
    }

    /// Reads a movie fragment box whole: its samples of the followed track are the next to give.
    /// - Throws: `MP4Invalid` when the box is broken or places samples before its own end.
    mutating func takeFragment(_ moof: MP4Box, in input: ReaderInput) throws(MP4Invalid) {
        guard let movie, let track else { return }
        let offset = input.offset + Int64(moof.start)
        try MP4Fragment.read(moof, in: input.bytes, at: offset, fileStart: input.fileStart, trackID: track.id,
                             defaults: movie.fragmentDefaults, into: &table)
        try table.validate(startingAtOrAfter: input.offset + Int64(moof.content.upperBound))
        cursor = MP4SampleCursor(over: table)
    }
}
