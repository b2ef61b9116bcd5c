import AudioDecoding

/// A RIFF/WAVE file of interleaved PCM, written as it arrives to a file or standard output (`-`). The header's
/// sizes say "unknown" (0xFFFFFFFF, as ffmpeg writes to a pipe) until `close()` fills them in, which it can do on
/// a file but not on a pipe.
final class WAVWriter {
    let format: PCMFormat
    private let output: BufferedOutput
    private var dataByteCount = 0

    /// 16-bit samples are PCM (format tag 1); floats are IEEE float (tag 3), which needs a fact chunk.
    private var isFloat: Bool { format.sampleFormat == .float32 }
    private var formatChunkSize: Int { isFloat ? 18 : 16 }
    private var headerSize: Int { 12 + 8 + formatChunkSize + (isFloat ? 12 : 0) + 8 }

    init(path: String, format: PCMFormat) throws {
        self.format = format
        output = try BufferedOutput.opening(path)
        header(dataByteCount: nil).withUnsafeBytes { output.write($0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        output.write(bytes)
        dataByteCount += bytes.count
    }

    /// Throws the output's first write failure, if any (see `BufferedOutput.throwIfFailed()`).
    func throwIfFailed() throws {
        try output.throwIfFailed()
    }

    /// Flushes the output and, when it can be rewritten, writes the sizes into the header.
    func close() throws {
        try output.flush()
        guard output.isRewritable else { return }
        guard headerSize - 8 + dataByteCount < Int(UInt32.max) else {
            throw CommandFailure("the PCM exceeds the 4 GiB a WAV file can hold; use --raw")
        }
        try output.overwrite(header(dataByteCount: dataByteCount), at: 0)
    }

    /// The header for `dataByteCount` bytes of samples, or for an unknown count when nil.
    private func header(dataByteCount: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        func text(_ value: String) { bytes += Array(value.utf8) }
        func uint32(_ value: Int?) {
            let value = value ?? Int(UInt32.max)
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        func uint16(_ value: Int) { bytes += (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        text("RIFF")
        uint32(dataByteCount.map { headerSize - 8 + $0 })
        text("WAVE")
        text("fmt ")
        uint32(formatChunkSize)
        uint16(isFloat ? 3 : 1)
        uint16(format.channels)
        uint32(format.sampleRate)
        uint32(format.sampleRate * format.bytesPerFrame)
        uint16(format.bytesPerFrame)
        uint16(format.sampleFormat.bytesPerSample * 8)
        if isFloat {
            uint16(0)
            text("fact")
            uint32(4)
            uint32(dataByteCount.map { $0 / format.bytesPerFrame })
        }
        text("data")
        uint32(dataByteCount)
        return bytes
    }
}
