import AudioFileStream

/// What an M4A's movie box says that is known before the first packet: the clock, the start trim, the sample
/// description and the tags. The writer stores it at the file's start so that a repair can build the movie box
/// of a file cut short.
struct M4ATrackHeader: Equatable {
    /// Ticks a second of the movie and the media: the sample rate, so that trims and durations are exact frames.
    var timescale: UInt32
    var leadingTrim: Int64
    /// The sample entry (`mp4a` or `alac` box) that `stsd` holds.
    var sampleEntry: [UInt8]
    /// The `ilst` items of the tags.
    var tagItems: [UInt8]

    /// The header of a file of `track`'s packets.
    /// - Throws: `WriteError.unsupportedFormat` when the track is not AAC or ALAC with a cookie of its form.
    init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64) throws {
        let format = track.format
        guard format.sampleRate >= 1, format.sampleRate <= Double(UInt32.max), format.channelsPerFrame >= 1,
              format.channelsPerFrame <= UInt32(UInt16.max), leadingTrim >= 0 else {
            throw WriteError.unsupportedFormat(
                "an M4A cannot hold \(format.sampleRate) Hz, \(format.channelsPerFrame) channels")
        }
        timescale = UInt32(format.sampleRate)
        self.leadingTrim = leadingTrim
        sampleEntry = try M4ASampleEntry.box(for: track)
        tagItems = ITunesTagWriter.items(tags)
    }

    init(timescale: UInt32, leadingTrim: Int64, sampleEntry: [UInt8], tagItems: [UInt8]) {
        self.timescale = timescale
        self.leadingTrim = leadingTrim
        self.sampleEntry = sampleEntry
        self.tagItems = tagItems
    }
}
