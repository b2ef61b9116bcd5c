import Glibc

/// Blocking connects and writes on raw descriptors; the load run switches them to non-blocking reads.
enum Socket {
    /// A stream socket connected to the Unix socket at `path`.
    static func connect(unixPath path: String) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw LoadError("socket path longer than \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        return try connect(family: AF_UNIX, address: address, describing: path)
    }

    /// A TCP socket connected to `port` on the IPv4 loopback address, with Nagle's delay off.
    static func connect(loopbackPort port: Int) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(INADDR_LOOPBACK).bigEndian
        let file = try connect(family: AF_INET, address: address, describing: "127.0.0.1:\(port)")
        var on: Int32 = 1
        setsockopt(file, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return file
    }

    private static func connect<Address>(family: Int32, address: Address, describing name: String) throws -> Int32 {
        let file = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard file >= 0 else { throw LoadError.system("socket for \(name)") }
        var address = address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(file, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard connected == 0 else {
            let failure = LoadError.system("connect to \(name)")
            close(file)
            throw failure
        }
        return file
    }

    static func setNonBlocking(_ file: Int32) throws {
        guard fcntl(file, F_SETFL, fcntl(file, F_GETFL) | O_NONBLOCK) == 0 else { throw LoadError.system("fcntl") }
    }

    /// Writes every byte, waiting as a blocking descriptor does.
    static func writeAll(_ file: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var sent = 0
        while sent < bytes.count {
            let count = write(file, bytes.baseAddress! + sent, bytes.count - sent)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw LoadError.system("write") }
            sent += count
        }
    }

    static func writeAll(_ file: Int32, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeAll(file, $0) }
    }

    /// Reads until the peer closes (blocking), for short request/response exchanges.
    static func readToEnd(_ file: Int32) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw LoadError.system("read") }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
