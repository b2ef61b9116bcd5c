import Foundation

/// A process's CPU time so far, read from /proc/PID/stat, and when it was read.
struct ProcessSample {
    let time: UInt64
    /// User plus system time.
    let cpuSeconds: Double
    /// System time alone: the kernel's work on the process's behalf (its system calls).
    let systemSeconds: Double

    /// - Throws: `LoadError` when the process is gone.
    init(pid: Int32) throws {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")")
        else { throw LoadError("cannot read /proc/\(pid)/stat") }
        // Fields after the command name start at field 3 (state); utime and stime are fields 14 and 15, in ticks.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw LoadError("unexpected /proc/\(pid)/stat")
        }
        time = MonotonicClock.now
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = (user + system) / tick
        systemSeconds = system / tick
    }

    /// CPU time used since `earlier`, as a percentage of one core over the wall time between the samples.
    func cpuPercent(since earlier: ProcessSample) -> Double {
        (cpuSeconds - earlier.cpuSeconds) / (Double(time - earlier.time) / 1e9) * 100
    }

    /// System time used since `earlier`, as `cpuPercent(since:)` counts.
    func systemPercent(since earlier: ProcessSample) -> Double {
        (systemSeconds - earlier.systemSeconds) / (Double(time - earlier.time) / 1e9) * 100
    }
}

/// A process's resident memory now and at its peak, from /proc/PID/status (VmRSS, VmHWM).
struct ProcessMemory: Codable {
    let residentKiB: Int
    let peakResidentKiB: Int

    init(pid: Int32) throws {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw LoadError("cannot read /proc/\(pid)/status")
        }
        func kibibytes(_ key: String) throws -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") }
            let fields = line?.split(whereSeparator: { $0 == " " || $0 == "\t" }) ?? []
            guard fields.count > 1, let value = Int(fields[1]) else {
                throw LoadError("no \(key) in /proc/\(pid)/status")
            }
            return value
        }
        residentKiB = try kibibytes("VmRSS")
        peakResidentKiB = try kibibytes("VmHWM")
    }
}
