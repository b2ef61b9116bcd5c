import AudioFileStream

/// A source's bytes parsed on the side while another source plays, until they give a whole, confirmed frame:
/// only then does the source go on the air, so a station that answers with silence, a web page or noise never
/// cuts the one that plays. The bytes are kept for the stream's parser, to read from their start once it does.
final class SourceProbe {
    /// The most bytes kept: far beyond `FirstFrameBound.bytes` (what an HTTP source may send before a frame), to
    /// leave room for a leading ID3v2 tag with its cover art. Past it the oldest bytes go, half the bound at a
    /// time: what is kept then starts inside the tag, and the stream's parser finds the frames after it again.
    static let maximumBytes = 1 << 20

    private var parser: AudioFileStream?
    /// The bytes since the probe started, or since its source's file started again, the newest ones if more.
    private(set) var kept: [UInt8] = []
    private var isConfirmed = false
    /// The format the bytes announced first.
    private(set) var format: AudioStreamBasicDescription?

    /// A probe for bytes of `typeHint`'s type, or sniffed when there is none, or none the parser reads.
    init(typeHint: AudioFileType?) {
        let handler: AudioFileStream.EventHandler = { [unowned self] event in
            switch event {
            case .packets: isConfirmed = true
            case .property(.dataFormat, .format(let format)) where self.format == nil: self.format = format
            default: break
            }
        }
        parser = AudioFileStream.onTheSide(typeHint: typeHint, handler: handler)
    }

    /// Parses and keeps the source's next bytes; with `restartsFile` they start its file again (a looped file
    /// read again from its start), and only they are kept.
    /// - Returns: whether the bytes so far hold a whole, confirmed frame; never once they turned out to be
    ///   something else than audio the parser reads.
    func take(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool) -> Bool {
        guard let parser else { return false }
        if restartsFile { kept.removeAll() }
        kept.append(contentsOf: bytes)
        if kept.count > Self.maximumBytes { kept.removeFirst(kept.count - Self.maximumBytes / 2) }
        do {
            if restartsFile { try parser.markNewFile() }
            try parser.parse(bytes)
        } catch {
            self.parser = nil
            kept = []
        }
        return isConfirmed && self.parser != nil
    }
}

extension AudioFileStream {
    /// A parser for a source's bytes read on the side, by `typeHint`'s type, or sniffed when there is none or none
    /// the parser reads; it keeps no index (a live source is never seeked).
    static func onTheSide(typeHint: AudioFileType?, handler: @escaping EventHandler) -> AudioFileStream? {
        (try? AudioFileStream(fileTypeHint: typeHint, indexedPackets: 0, handler: handler))
            ?? (try? AudioFileStream(indexedPackets: 0, handler: handler))
    }
}
