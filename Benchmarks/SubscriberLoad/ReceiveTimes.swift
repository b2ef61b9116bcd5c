import Glibc

/// When the kernel took in the bytes a read returns (the software receive stamp of SO_TIMESTAMPING), on the
/// monotonic clock. On loopback that is the moment the server's write delivered them: a figure that one process
/// reading a thousand sockets in turn does not move.
enum ReceiveTimes {
    /// SO_TIMESTAMPING (SO_TIMESTAMPING_OLD on 64-bit Linux), and the flags that ask for software receive stamps
    /// (SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE), from <linux/net_tstamp.h>.
    private static let option: Int32 = 37
    private static let flags: Int32 = 1 << 3 | 1 << 4
    /// Bytes of a `struct cmsghdr` before its data: a size_t and two ints.
    private static let controlHeaderSize = 16
    /// Room for the control message of one `struct scm_timestamping` (three timespecs).
    static let controlSize = controlHeaderSize + 3 * MemoryLayout<timespec>.size

    /// Asks the kernel to stamp what `file` receives.
    static func enable(on file: Int32) throws {
        var value = flags
        guard setsockopt(file, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw LoadError.system("setsockopt SO_TIMESTAMPING")
        }
    }

    /// Reads into `buffer` as read(2) does, `control` taking the stamp.
    /// - Returns: the count read (or -1), and the kernel's receive time of the bytes, when it stamped them.
    static func read(_ file: Int32, into buffer: UnsafeMutableRawBufferPointer,
                     control: UnsafeMutableRawBufferPointer) -> (count: Int, time: UInt64?) {
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        let count = withUnsafeMutablePointer(to: &vector) { vector in
            var message = msghdr()
            message.msg_iov = vector
            message.msg_iovlen = 1
            message.msg_control = control.baseAddress
            message.msg_controllen = control.count
            let count = recvmsg(file, &message, 0)
            return (count, message.msg_controllen)
        }
        guard count.0 > 0, count.1 >= controlSize,
              control.load(fromByteOffset: 8, as: Int32.self) == SOL_SOCKET,
              control.load(fromByteOffset: 12, as: Int32.self) == option
        else { return (count.0, nil) }
        let stamp = control.loadUnaligned(fromByteOffset: controlHeaderSize, as: timespec.self)
        return (count.0, monotonic(fromRealTime: stamp))
    }

    /// `time` of CLOCK_REALTIME, which the stamps are taken on, as CLOCK_MONOTONIC nanoseconds.
    private static func monotonic(fromRealTime time: timespec) -> UInt64 {
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        let stamped = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        let now = Int64(real.tv_sec) * 1_000_000_000 + Int64(real.tv_nsec)
        return UInt64(Int64(MonotonicClock.now) - (now - stamped))
    }
}
