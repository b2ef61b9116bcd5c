import AudioDecoding
import AudioStreamProtocol
import NIOCore

/// Turns the decoder's float PCM into messages in every format the stream's PCM subscribers asked for: each
/// encoding at the stream's own rate and channels straight from the floats, each request that fixes a rate or
/// channel count through one resampler of its own, however many subscribers share it.
///
/// Owned by its stream's pipeline, on that stream's event loop.
struct PCMDelivery {
    private let allocator: ByteBufferAllocator
    /// The resampler of each request that fixes a rate or channel count, while some subscriber asks for it.
    private var conversions: [PCMRequest: Conversion] = [:]

    private final class Conversion {
        let resampler: PCMResampler
        /// Timestamp of the resampler's next frame, at its output rate.
        var timestamp: Int64
        /// Whether the resampler refused the decoder's PCM: reported once, then its subscribers get none.
        var failed = false

        init(request: PCMRequest, timestamp: Int64) {
            resampler = PCMResampler(target: request.target)
            self.timestamp = timestamp
        }
    }

    init(allocator: ByteBufferAllocator) {
        self.allocator = allocator
    }

    /// Messages for `pcm`, decoded from the packets at `offset`, its first frame at `timestamp` (frames at the
    /// stream's rate, counted as the protocol says); `report` hears of a resampler that refuses the PCM.
    mutating func messages(
        for pcm: PCMBuffer, at offset: Int64, timestamp: Int64, requests: [PCMRequest],
        report: (DecodeError) -> Void
    ) -> [PCMRequest: [QueuedMessage]] {
        conversions = conversions.filter { requests.contains($0.key) }
        var messages: [PCMRequest: [QueuedMessage]] = [:]
        for request in requests {
            guard request.target.converts else {
                let buffer = WireEncoding.pcm(
                    floats: pcm.bytes, sampleRate: pcm.format.sampleRate, channels: pcm.format.channels,
                    timestamp: timestamp, encoding: request.encoding,
                    truncating: pcm.format.codecSamples == .wideInteger, allocator: allocator)
                let bytes = pcm.bytes.count / 4 * request.encoding.bytesPerSample
                messages[request] = [message(buffer, bytes: bytes, frames: pcm.frames, rate: pcm.format.sampleRate,
                                             offset: offset)]
                continue
            }
            let conversion = conversions[request] ?? {
                // Joining mid-stream: its first frame is where the stream's PCM is, counted at its own rate.
                let rate = request.sampleRate ?? pcm.format.sampleRate
                let conversion = Conversion(
                    request: request, timestamp: timestamp * Int64(rate) / Int64(pcm.format.sampleRate))
                conversions[request] = conversion
                return conversion
            }()
            guard !conversion.failed else { continue }
            do {
                try conversion.resampler.convert(pcm) { output in
                    messages[request, default: []].append(converted(output, by: conversion, offset: offset))
                }
            } catch {
                conversion.failed = true
                report(error as? DecodeError ?? DecodeError("\(error)"))
            }
        }
        return messages
    }

    /// The end of the decoded PCM: what the resamplers still hold, as messages from the packets at `offset`.
    /// They start afresh after.
    mutating func finish(at offset: Int64) -> [PCMRequest: [QueuedMessage]] {
        var messages: [PCMRequest: [QueuedMessage]] = [:]
        for (request, conversion) in conversions where !conversion.failed {
            conversion.resampler.finish { output in
                messages[request, default: []].append(converted(output, by: conversion, offset: offset))
            }
        }
        conversions = [:]
        return messages
    }

    private func converted(_ output: PCMBuffer, by conversion: Conversion, offset: Int64) -> QueuedMessage {
        let encoding: WirePCMEncoding = output.format.sampleFormat == .int16 ? .s16 : .f32
        let buffer = WireEncoding.pcm(
            samples: output.bytes, sampleRate: output.format.sampleRate, channels: output.format.channels,
            timestamp: conversion.timestamp, encoding: encoding, allocator: allocator)
        conversion.timestamp += Int64(output.frames)
        return message(buffer, bytes: output.bytes.count, frames: output.frames, rate: output.format.sampleRate,
                       offset: offset)
    }

    private func message(_ buffer: ByteBuffer, bytes: Int, frames: Int, rate: Int, offset: Int64) -> QueuedMessage {
        QueuedMessage(buffer: buffer, audio: AudioSpan(offset: offset, bytes: bytes, frames: frames, sampleRate: rate))
    }
}
