import AudioStreamProtocol
import NIOCore

// Resampled PCM goes on the wire in the byte order the resampler gives: native, which must be the wire's.
#if !_endian(little)
#error("resampled PCM is written in native byte order, and the wire's is little-endian")
#endif

/// Builds whole messages (length, type, payload) in `ByteBuffer`s, each encoded once and shared by every
/// subscriber it goes to.
enum WireEncoding {
    static func message(_ type: WireMessageType, json: JSON, allocator: ByteBufferAllocator) -> ByteBuffer {
        let text = json.text
        var buffer = allocator.buffer(capacity: WireProtocol.headerSize + text.utf8.count)
        writeHeader(type, payloadSize: text.utf8.count, to: &buffer)
        buffer.writeString(text)
        return buffer
    }

    static func packet(
        _ bytes: UnsafeRawBufferPointer, offset: Int64, timestamp: Int64, frames: Int, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let payloadSize = WireProtocol.packetFieldsSize + bytes.count
        var buffer = allocator.buffer(capacity: WireProtocol.headerSize + payloadSize)
        writeHeader(.packet, payloadSize: payloadSize, to: &buffer)
        buffer.writeMultipleIntegers(UInt64(offset), UInt64(timestamp), UInt32(frames))
        buffer.writeBytes(bytes)
        return buffer
    }

    /// An artwork message: the picture's description as JSON, then its bytes.
    static func artwork(_ description: JSON, picture: [UInt8], allocator: ByteBufferAllocator) -> ByteBuffer {
        let text = description.text
        let payloadSize = 4 + text.utf8.count + picture.count
        var buffer = allocator.buffer(capacity: WireProtocol.headerSize + payloadSize)
        writeHeader(.artwork, payloadSize: payloadSize, to: &buffer)
        buffer.writeInteger(UInt32(text.utf8.count))
        buffer.writeString(text)
        buffer.writeBytes(picture)
        return buffer
    }

    /// A PCM message from float samples, converted to `encoding` on the way.
    ///
    /// 16-bit samples are what decoding to 16 bits directly gives, as libswresample converts: floats the codec
    /// gave are rounded to nearest, ties to even, and clipped; integers of 16 bits or fewer scale back exactly;
    /// wider integers (`truncating`) keep their top 16 bits, which flooring gives for every source of up to 24
    /// bits, since a float holds those exactly.
    static func pcm(
        floats: UnsafeRawBufferPointer, sampleRate: Int, channels: Int, timestamp: Int64,
        encoding: WirePCMEncoding, truncating: Bool, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let samples = floats.count / 4
        var buffer = pcmHead(sampleBytes: samples * encoding.bytesPerSample, sampleRate: sampleRate,
                             channels: channels, timestamp: timestamp, encoding: encoding, allocator: allocator)
        switch encoding {
        case .f32:
            for index in 0..<samples {
                let sample = floats.loadUnaligned(fromByteOffset: index * 4, as: Float.self)
                buffer.writeInteger(sample.bitPattern, endianness: .little)
            }
        case .s16:
            for index in 0..<samples {
                let scaled = (floats.loadUnaligned(fromByteOffset: index * 4, as: Float.self) * 32768)
                    .rounded(truncating ? .down : .toNearestOrEven)
                buffer.writeInteger(Int16(max(-32768, min(32767, scaled))), endianness: .little)
            }
        }
        return buffer
    }

    /// A PCM message of samples already in `encoding`, native byte order (little-endian, as the wire's).
    static func pcm(
        samples: UnsafeRawBufferPointer, sampleRate: Int, channels: Int, timestamp: Int64,
        encoding: WirePCMEncoding, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        var buffer = pcmHead(sampleBytes: samples.count, sampleRate: sampleRate, channels: channels,
                             timestamp: timestamp, encoding: encoding, allocator: allocator)
        buffer.writeBytes(samples)
        return buffer
    }

    /// A PCM message's header and fields, in a buffer with room for its samples.
    private static func pcmHead(
        sampleBytes: Int, sampleRate: Int, channels: Int, timestamp: Int64, encoding: WirePCMEncoding,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let payloadSize = WireProtocol.pcmFieldsSize + sampleBytes
        var buffer = allocator.buffer(capacity: WireProtocol.headerSize + payloadSize)
        writeHeader(.pcm, payloadSize: payloadSize, to: &buffer)
        buffer.writeMultipleIntegers(UInt64(timestamp), UInt32(sampleRate), UInt16(channels), encoding.rawValue, UInt8(0))
        return buffer
    }

    private static func writeHeader(_ type: WireMessageType, payloadSize: Int, to buffer: inout ByteBuffer) {
        buffer.writeMultipleIntegers(UInt32(1 + payloadSize), type.rawValue)
    }
}
