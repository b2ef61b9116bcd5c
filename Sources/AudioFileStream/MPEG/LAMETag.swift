/// The LAME extension of a Xing/Info tag; of it we need the encoder delay and padding for gapless playback.
struct LAMETag: Equatable {
    /// The encoder's name and version, e.g. `LAME3.100`.
    let encoder: String
    /// PCM frames the encoder added before the audio.
    let encoderDelay: Int
    /// PCM frames the encoder added after the audio.
    let encoderPadding: Int

    /// Reads the tag at `position`, or nil when no LAME-compatible encoder wrote one (FFmpeg writes Lavf/Lavc).
    init?(frame: UnsafeRawBufferPointer, at position: Int) {
        guard position + 24 <= frame.count,
              frame.matches("LAME", at: position) || frame.matches("Lavf", at: position)
                || frame.matches("Lavc", at: position)
        else { return nil }
        encoder = String(decoding: frame[position..<position + 9], as: UTF8.self)
            .trimmingSuffix(while: { $0 == " " || $0 == "\0" })
        let packed = Int(frame[position + 21]) << 16 | Int(frame[position + 22]) << 8 | Int(frame[position + 23])
        encoderDelay = packed >> 12
        encoderPadding = packed & 0xFFF
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var result = self
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }
}
