/// The end every decoder's PCM goes through: the format announced before the PCM it applies to, gapless
/// trimming, and the handler.
struct PCMOutput {
    private let handler: (DecoderEvent) -> Void
    var trimmer = GaplessTrimmer()
    /// The format last announced.
    private(set) var format: PCMFormat?

    init(handler: @escaping (DecoderEvent) -> Void) {
        self.handler = handler
    }

    /// The PCM that follows has `newFormat`: announced when it differs from the last.
    mutating func announce(_ newFormat: PCMFormat) {
        guard newFormat != format else { return }
        format = newFormat
        handler(.format(newFormat))
    }

    /// Hands out the frames of `bytes` (interleaved, in the announced format) that trimming keeps.
    mutating func emit(_ bytes: UnsafeRawBufferPointer) {
        guard let format, !bytes.isEmpty else { return }
        let kept = trimmer.take(bytes.count / format.bytesPerFrame)
        guard !kept.isEmpty else { return }
        let range = kept.lowerBound * format.bytesPerFrame..<kept.upperBound * format.bytesPerFrame
        handler(.pcm(PCMBuffer(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]), format: format)))
    }

    /// Reports an event other than PCM.
    func report(_ event: DecoderEvent) {
        handler(event)
    }
}
