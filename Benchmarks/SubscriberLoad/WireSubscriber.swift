import AudioStreamProtocol
import Foundation

/// One subscriber of audiostreamd asking for packets: reads packet messages and events from its stream socket.
final class WireSubscriber: Receiver {
    let descriptor: Int32
    private let id: Int
    private let log: DeliveryLog
    private var framer = WireMessageFramer()
    private(set) var tally = ReceiverTally()
    /// Whether the stream's end event arrived.
    private(set) var sawEnd = false

    /// The hello every subscriber sends: packets only, no burst, as a whole wire message.
    static let hello = WireProtocol.message(.hello, json: Hello(kinds: [.packets]).json)

    /// Connects to the stream socket at `path` and says hello.
    init(path: String, id: Int, log: DeliveryLog) throws {
        descriptor = try Socket.connect(unixPath: path)
        self.id = id
        self.log = log
        try Socket.writeAll(descriptor, Self.hello)
    }

    func take(_ bytes: UnsafeRawBufferPointer, at time: UInt64) {
        guard tally.refusal == nil else { return }
        do {
            try framer.feed(bytes) { type, payload in
                switch WireMessageType(rawValue: type) {
                case .packet: packet(payload, at: time)
                case .event: event(payload)
                case .error: tally.refusal = String(decoding: payload, as: UTF8.self)
                default: break
                }
            }
        } catch {
            tally.refusal = "\(error)"
        }
    }

    func closed(at time: UInt64) {
        tally.closedAt = time
    }

    /// A packet message: u64 offset, u64 timestamp, u32 frames, then the packet's bytes.
    private func packet(_ payload: UnsafeRawBufferPointer, at time: UInt64) {
        let fields = WireProtocol.packetFieldsSize
        guard payload.count >= fields else {
            tally.mismatches += 1
            return
        }
        let offset = Int(UInt64(bigEndian: payload.loadUnaligned(as: UInt64.self)))
        let packet = UnsafeRawBufferPointer(rebasing: payload[fields...])
        guard let frame = log.feed.frame(startingAt: offset), log.feed.ends[frame] - offset == packet.count,
              log.feed.matches(packet, at: offset)
        else {
            tally.mismatches += 1
            return
        }
        log.received(frame: frame, by: id, at: time)
    }

    /// An event: counts overflow discontinuities and notes the end.
    private func event(_ payload: UnsafeRawBufferPointer) {
        guard let event = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else { return }
        switch (event["event"] as? String, event["reason"] as? String) {
        case ("discontinuity", "overflow"):
            tally.overflowEvents += 1
            tally.droppedPackets += event["droppedPackets"] as? Int ?? 0
        case ("end", _):
            sawEnd = true
        default:
            break
        }
    }
}
