import AudioFileStream
import AudioFileWriting

/// The first way two tracks differ that keeps their packets from one file, said for an error message.
struct TrackDifference: CustomStringConvertible {
    let description: String

    /// Nil when `track` can follow `first` in one file: the same codec, parameters and setup bytes. FLAC's
    /// STREAMINFO and Opus' header state each file's own totals and pre-skip, and their parameters are in the
    /// DataFormat: their setup bytes may differ.
    init?(_ first: TrackFormat, _ track: TrackFormat) {
        let (a, b) = (first.format, track.format)
        let setupDiffers = ![AudioFormatID.flac, AudioFormatID.opus].contains(a.formatID) && first.cookie != track.cookie
        let fields: [(what: String, was: String, is: String, differs: Bool)] = [
            ("codec", "\(a.codecName)", "\(b.codecName)", a.formatID != b.formatID),
            ("sample rate", "\(a.sampleRate) Hz", "\(b.sampleRate) Hz", a.sampleRate != b.sampleRate),
            ("channels", "\(a.channelsPerFrame)", "\(b.channelsPerFrame)", a.channelsPerFrame != b.channelsPerFrame),
            ("bits per channel", "\(a.bitsPerChannel)", "\(b.bitsPerChannel)", a.bitsPerChannel != b.bitsPerChannel),
            ("format flags", "\(a.formatFlags)", "\(b.formatFlags)", a.formatFlags != b.formatFlags),
            ("frames per packet", "\(a.framesPerPacket)", "\(b.framesPerPacket)", a.framesPerPacket != b.framesPerPacket),
            ("bytes per packet", "\(a.bytesPerPacket)", "\(b.bytesPerPacket)", a.bytesPerPacket != b.bytesPerPacket),
            ("codec setup", "\(first.cookie.count) bytes", "\(track.cookie.count) bytes of other content", setupDiffers),
            ("channel layout", "another", "this one", first.channelLayout != track.channelLayout),
        ]
        guard let field = fields.first(where: \.differs) else { return nil }
        description = "\(field.what): \(field.is), not \(field.was)"
    }
}
