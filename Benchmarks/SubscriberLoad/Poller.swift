import Glibc

/// An epoll instance (level-triggered): descriptors registered for reading under a token, waited on together.
final class Poller {
    private let descriptor: Int32
    /// Room for `batch` `struct epoll_event`s, filled by `epoll_wait`.
    private let ready: UnsafeMutableRawBufferPointer

    /// - Parameter batch: the most ready descriptors one `wait` reports.
    init(batch: Int = 1024) throws {
        descriptor = LinuxCalls.epollCreate1(O_CLOEXEC)
        guard descriptor >= 0 else { throw LoadError.system("epoll_create1") }
        ready = .allocate(byteCount: batch * LinuxCalls.epollEventSize, alignment: 8)
    }

    deinit {
        ready.deallocate()
        close(descriptor)
    }

    /// Reports `file` under `token` whenever it has bytes to read (or has closed).
    func watch(_ file: Int32, token: UInt64) throws {
        var event = [UInt8](repeating: 0, count: LinuxCalls.epollEventSize)
        event.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: LinuxCalls.epollIn, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: token, toByteOffset: LinuxCalls.epollDataOffset, as: UInt64.self)
        }
        let added = event.withUnsafeMutableBytes {
            LinuxCalls.epollControl(descriptor, LinuxCalls.epollAdd, file, $0.baseAddress)
        }
        guard added == 0 else { throw LoadError.system("epoll_ctl") }
    }

    func unwatch(_ file: Int32) {
        _ = LinuxCalls.epollControl(descriptor, LinuxCalls.epollDelete, file, nil)
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) and calls `body` with each ready token.
    func wait(timeoutMilliseconds: Int32, _ body: (UInt64) throws -> Void) throws {
        let capacity = Int32(ready.count / LinuxCalls.epollEventSize)
        let count = LinuxCalls.epollWait(descriptor, ready.baseAddress, capacity, timeoutMilliseconds)
        if count < 0 && errno == EINTR { return }
        guard count >= 0 else { throw LoadError.system("epoll_wait") }
        for index in 0..<Int(count) {
            let offset = index * LinuxCalls.epollEventSize + LinuxCalls.epollDataOffset
            try body(ready.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
    }
}
