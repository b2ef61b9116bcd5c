import AudioFileStream

/// What a stream's loop hands its recording: the parser's events, owned so that they can cross to the
/// recording's queue, and what the source says beside its audio.
enum RecordingInput: Sendable {
    case event(OwnedEvent)
    /// Tags a source said beside its audio, from the packet at a stream offset on.
    case tags(NormalizedTags, offset: Int64)
    /// The station's name, from a network source's headers.
    case station(String?)
    /// The next frame is at this wall-clock time (the first packet, a reconnect).
    case clock(Double)
    /// Another source takes the air: its bytes follow.
    case newSource

    /// Bytes the input holds, for bounding what waits for a slow disk.
    var byteCount: Int {
        if case .event(let event) = self { event.byteCount } else { 0 }
    }
}
