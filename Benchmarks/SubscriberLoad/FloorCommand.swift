import ArgumentParser
import CSendRing
import Foundation

/// `SubscriberLoad floor`: what the writes of a fan-out cost when nothing else is done, the least any relay can
/// spend to send as often to as many local subscribers.
///
/// One thread writes `bytes` to each of N connected sockets `rate` times a second, the subscribers in eight
/// slots at phases spread over the period, as audiostreamd's hub does; another thread reads them all through
/// epoll, as the load generator does. The writer's CPU (its thread's clock: system calls and, over loopback TCP,
/// the receiving side's protocol work the kernel does in the sender's call) is the floor. With `--io-uring` a
/// slot's writes go through one io_uring submission, as audiostreamd sends to its HTTP listeners.
struct FloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor", abstract: "Measure the CPU that the writes of a fan-out alone cost.")

    @Option(help: "Connected sockets to write to.")
    var subscribers: Int

    @Option(help: "Bytes per write.")
    var bytes: Int

    @Option(help: "Writes per second to each socket.")
    var rate: Double

    @Option(help: "Seconds measured.")
    var seconds: Double = 10

    @Flag(help: "Loopback TCP connections instead of Unix socket pairs.")
    var tcp = false

    @Flag(help: "Send a slot's writes through io_uring, in one system call, as audiostreamd sends to HTTP listeners.")
    var ioUring = false

    @Option(help: "Where to write the results as JSON.")
    var report: String

    /// Slots the subscribers are written in, as in audiostreamd's hub.
    static let slots = 8

    func run() throws {
        let pairs = try (0..<subscribers).map { _ in try tcp ? Self.loopbackPair() : Self.unixPair() }
        defer { for pair in pairs { close(pair.writer); close(pair.reader) } }
        for pair in pairs { try Socket.setNonBlocking(pair.reader) }
        let readers = pairs.map(\.reader)
        let drain = Thread {
            guard let poller = try? Poller() else { return }
            for (index, reader) in readers.enumerated() { try? poller.watch(reader, token: UInt64(index)) }
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                try? poller.wait(timeoutMilliseconds: -1) { token in
                    while buffer.withUnsafeMutableBytes({ read(readers[Int(token)], $0.baseAddress, $0.count) }) > 0 {}
                }
            }
        }
        drain.start()

        let payload = [UInt8](repeating: 0x55, count: bytes)
        let sender = try ioUring ? RingSender(payload: payload, writers: pairs.map(\.writer)) : nil
        let step = UInt64(1e9 / rate) / UInt64(Self.slots)
        let start = MonotonicClock.now + 500_000_000
        let end = start + UInt64(seconds * 1e9)
        var writes = 0, shortWrites = 0
        var cpuAtStart = 0.0
        var tick: UInt64 = 0
        while true {
            let due = start + tick * step
            guard due < end else { break }
            let now = MonotonicClock.now
            if due > now { usleep(UInt32((due - now) / 1000)) }
            if tick == 0 { cpuAtStart = Self.threadCPUSeconds() }
            let slot = stride(from: Int(tick) % Self.slots, to: pairs.count, by: Self.slots)
            if let sender {
                shortWrites += sender.send(to: slot)
                writes += slot.underestimatedCount
            } else {
                for index in slot {
                    let sent = payload.withUnsafeBytes {
                        send(pairs[index].writer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    }
                    writes += 1
                    if sent != bytes { shortWrites += 1 }
                }
            }
            tick += 1
        }
        let cpu = Self.threadCPUSeconds() - cpuAtStart
        let wall = Double(MonotonicClock.now - start) / 1e9
        let result = FloorReport(
            transport: tcp ? "tcp" : "unix", mechanism: ioUring ? "io_uring" : "send", subscribers: subscribers,
            bytes: bytes, rate: rate, seconds: wall, cpuPercent: cpu / wall * 100,
            microsecondsPerWrite: cpu / Double(writes) * 1e6, writes: writes, shortWrites: shortWrites)
        try JSONEncoder().encode(result).write(to: URL(fileURLWithPath: report))
        print(String(format: "floor %@ %@ ×%d: %d B at %.2f/s: writer CPU %.1f %% of a core, %.2f µs per write, "
                     + "%d short writes", result.transport, result.mechanism, subscribers, bytes, rate,
                     result.cpuPercent, result.microsecondsPerWrite, shortWrites))
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func unixPair() throws -> (writer: Int32, reader: Int32) {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw LoadError.system("socketpair")
        }
        return (pair[0], pair[1])
    }

    /// The listening socket loopback pairs are made through, bound to an ephemeral port.
    private static let loopbackListener: (socket: Int32, port: Int)? = {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(INADDR_LOOPBACK).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 128) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        return bound ? (listener, Int(UInt16(bigEndian: address.sin_port))) : nil
    }()

    private static func loopbackPair() throws -> (writer: Int32, reader: Int32) {
        guard let listener = loopbackListener else { throw LoadError.system("listen on 127.0.0.1") }
        let reader = try Socket.connect(loopbackPort: listener.port)
        let writer = accept(listener.socket, nil, nil)
        guard writer >= 0 else { throw LoadError.system("accept") }
        var on: Int32 = 1
        setsockopt(writer, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return (writer, reader)
    }
}

/// What `SubscriberLoad floor` measured.
struct FloorReport: Codable {
    let transport: String
    /// `send` (one `send(2)` a write) or `io_uring` (a slot's writes in one submission).
    let mechanism: String
    let subscribers: Int
    let bytes: Int
    let rate: Double
    let seconds: Double
    let cpuPercent: Double
    let microsecondsPerWrite: Double
    let writes: Int
    let shortWrites: Int
}

/// A slot's sends through one io_uring submission (Sources/CSendRing, as audiostreamd's `SendRing` makes them),
/// with everything handed to the ring made once, so that the writes alone are measured.
final class RingSender {
    private let ring: OpaquePointer
    private let payload: UnsafeMutableRawBufferPointer
    private let writers: [Int32]
    private var descriptors: [Int32]
    private let pointers: [UnsafeRawPointer?]
    private let lengths: [UInt32]
    private var results: [Int32]

    init(payload bytes: [UInt8], writers: [Int32]) throws {
        guard let ring = send_ring_create(256) else { throw LoadError.system("io_uring") }
        self.ring = ring
        payload = .allocate(byteCount: bytes.count, alignment: 16)
        payload.copyBytes(from: bytes)
        self.writers = writers
        descriptors = Array(repeating: -1, count: writers.count)
        pointers = Array(repeating: UnsafeRawPointer(payload.baseAddress), count: writers.count)
        lengths = Array(repeating: UInt32(bytes.count), count: writers.count)
        results = Array(repeating: 0, count: writers.count)
    }

    deinit {
        send_ring_destroy(ring)
        payload.deallocate()
    }

    /// Sends the payload to the writers at `indices`; returns how many took less than all of it.
    func send(to indices: StrideTo<Int>) -> Int {
        var count = 0
        for index in indices {
            descriptors[count] = writers[index]
            count += 1
        }
        _ = send_ring_send(ring, UInt32(count), descriptors, pointers, lengths, &results)
        return results[..<count].lazy.filter { $0 != self.payload.count }.count
    }
}
