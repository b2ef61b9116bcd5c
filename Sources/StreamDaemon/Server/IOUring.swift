import Foundation

/// Whether the daemon uses io_uring at all: not with `AUDIOSTREAMD_IO_URING=off` in its environment, for a kernel
/// or sandbox where io_uring misbehaves rather than refuses, and to compare. Without it every connection is served
/// by NIO and `send(2)`.
enum IOUring {
    static let isAllowed = ProcessInfo.processInfo.environment["AUDIOSTREAMD_IO_URING"] != "off"
}
