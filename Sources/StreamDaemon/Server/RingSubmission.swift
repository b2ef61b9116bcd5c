import CSendRing
import NIOCore

/// The sends of one `SendRing.submit()`, as the ring takes them: a socket's descriptor, bytes and length at the same
/// index of each array. Kept between submits, emptied, so that a write-out allocates nothing.
struct RingSubmission {
    private(set) var sockets: [SubscriberSocket] = []
    private var descriptors: [CInt] = []
    private var pointers: [UnsafeRawPointer?] = []
    private var lengths: [UInt32] = []
    /// Holds each send's bytes until the ring has sent them.
    private var storages: [Unmanaged<AnyObject>] = []
    /// What each send returned, as `send(2)` does, once `send(through:)` has run.
    private(set) var results: [Int32] = []

    var isEmpty: Bool { sockets.isEmpty }

    mutating func add(_ socket: SubscriberSocket, descriptor: CInt, bytes: ByteBuffer) {
        sockets.append(socket)
        descriptors.append(descriptor)
        lengths.append(UInt32(bytes.readableBytes))
        let (pointer, storage) = bytes.withUnsafeReadableBytesWithStorageManagement { ($0.baseAddress, $1.retain()) }
        pointers.append(pointer)
        storages.append(storage)
    }

    /// Makes every send; returns what `send_ring_send` does.
    mutating func send(through ring: OpaquePointer) -> CInt {
        results.append(contentsOf: repeatElement(0, count: sockets.count))
        let failed = send_ring_send(ring, UInt32(sockets.count), descriptors, pointers, lengths, &results)
        for storage in storages { storage.release() }
        storages.removeAll(keepingCapacity: true)
        return failed
    }

    mutating func removeAll() {
        sockets.removeAll(keepingCapacity: true)
        descriptors.removeAll(keepingCapacity: true)
        pointers.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        results.removeAll(keepingCapacity: true)
    }
}
