#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock times, in seconds since 1970, as recordings name and date their pieces: in local time.
public enum WallClock {
    /// The time now.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds local time is ahead of UTC at `time`.
    static func utcOffset(at time: Double) -> Int {
        localFields(time).tm_gmtoff
    }

    /// `2026-11-27T13:00:00` in local time, as ID3v2.4 and Vorbis comments write dates; with `milliseconds`,
    /// `2026-11-27T13:00:00.250+01:00` (ISO 8601 with the offset), as the tool and the status report times.
    public static func iso8601(_ time: Double, milliseconds: Bool = false) -> String {
        let fields = localFields(time)
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        var text = "\(fields.tm_year + 1900)-\(digits(Int(fields.tm_mon) + 1, 2))-\(digits(Int(fields.tm_mday), 2))T"
            + "\(digits(Int(fields.tm_hour), 2)):\(digits(Int(fields.tm_min), 2)):\(digits(Int(fields.tm_sec), 2))"
        guard milliseconds else { return text }
        let fraction = min(999, Int(((time - time.rounded(.down)) * 1000).rounded()))
        let offset = fields.tm_gmtoff
        text += ".\(digits(fraction, 3))\(offset < 0 ? "-" : "+")"
        text += "\(digits(abs(offset) / 3600, 2)):\(digits(abs(offset) % 3600 / 60, 2))"
        return text
    }

    private static func localFields(_ time: Double) -> tm {
        var seconds = time_t(time.rounded(.down))
        var fields = tm()
        localtime_r(&seconds, &fields)
        return fields
    }
}
