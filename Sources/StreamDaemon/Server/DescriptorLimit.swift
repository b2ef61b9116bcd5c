import Glibc

/// The process's file descriptors: how many it may open, and how many HTTP connections may take.
enum DescriptorLimit {
    /// Raises the soft limit on open descriptors to the hard one, as far as the system allows: the soft limit is
    /// often 1024 whatever the hard one, and every subscriber and listener holds a descriptor.
    /// - Returns: the soft limit now in force.
    static func raiseSoftLimitToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return .max }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is the largest value: no limit.
        return Int(clamping: limit.rlim_cur)
    }

    /// Descriptors HTTP connections never take out of `limit`: a quarter, and 64 at least, kept for stream
    /// sockets and their subscribers, the control socket, sources, files and the event loops.
    static func reserve(of limit: Int) -> Int {
        max(64, limit / 4)
    }

    /// How many HTTP connections may be open at once under `limit`.
    static func httpConnections(under limit: Int, maximum: Int) -> Int {
        max(0, min(maximum, limit - reserve(of: limit)))
    }
}
