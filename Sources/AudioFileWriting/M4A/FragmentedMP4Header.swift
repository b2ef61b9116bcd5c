import AudioFileStream

/// What starts a fragmented MP4 of one audio track (CMAF, ISO/IEC 23000-19): `ftyp` and a `moov` without
/// samples, the initialization section HLS names in `EXT-X-MAP` and DASH in its initialization segment. The
/// fragments that follow (`moof` and `mdat`) carry the packets.
package enum FragmentedMP4Header {
    /// The header for fragments of `track`'s packets on a clock of the track's rate, whose first `leadingTrim`
    /// frames (the encoder's priming) an edit leaves out.
    /// - Throws: `WriteError.unsupportedFormat` when an MP4 track cannot hold the codec (AAC, ALAC, Opus and FLAC
    ///   it can), or the cookie is not of its form.
    package static func bytes(track: TrackFormat, leadingTrim: Int64) throws -> [UInt8] {
        let header = try M4ATrackHeader(track: track, tags: NormalizedTags(), leadingTrim: leadingTrim)
        var builder = MP4BoxBuilder()
        builder.box("ftyp") {
            $0.fourCC("iso6")
            $0.uint32(0)
            for brand in ["iso6", "cmfc", "mp41"] { $0.fourCC(brand) }
        }
        return builder.bytes + M4AMovie.fragmentedBox(header)
    }
}
