/// The JSON of what passes between the hub and one subscriber: the audio it missed, and its audio messages as
/// `audiostream subscribe` prints them.
extension EventJSON {
    /// The discontinuity a subscriber gets where its queue overflowed and its oldest audio was dropped: the audio
    /// resumes at `offset`, after `droppedPackets` packets of `droppedFrames` frames and `skippedBytes` bytes.
    public static func overflow(
        resumingAt offset: Int64, skippedBytes: Int, droppedPackets: Int, droppedFrames: Int
    ) -> JSON {
        .object(discontinuityMembers(offset: offset, skippedBytes: Int64(skippedBytes), reason: "overflow") + [
            ("droppedPackets", .number(droppedPackets)), ("droppedFrames", .number(droppedFrames)),
        ])
    }

    /// A packet message as the `packet` event of the `events` schema.
    public static func packet(_ message: PacketMessage) -> JSON {
        packet(offset: message.offset, size: message.bytes.count, frames: Int64(message.frames))
    }

    /// A PCM message as a `pcm` line: its frames and format.
    public static func pcm(_ message: PCMMessage) -> JSON {
        .object([
            ("event", .string("pcm")), ("frames", .number(message.frames)), ("format", .string(message.encoding.name)),
            ("sampleRate", .number(message.sampleRate)), ("channels", .number(message.channels)),
        ])
    }
}
