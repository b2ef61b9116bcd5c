import ArgumentParser
import Glibc

/// The options every relay's run shares: what to feed, to how many subscribers, for how long, and where the
/// report goes.
struct LoadOptions: ParsableArguments {
    @Option(help: "The MP3 to feed, frame by frame at real-time pace (frames of one duration, e.g. CBR).")
    var input: String

    @Option(help: "Subscribers to connect before the first byte is fed, to each stream.")
    var subscribers: Int

    @Option(help: "Seconds fed before the measured window.")
    var warmup: Double = 3

    @Option(help: "Seconds of audio in the measured window.")
    var seconds: Double = 20

    @Option(help: "Seconds fed after the window, so that its last frames can get through.")
    var tail: Double = 2

    @Option(help: "Seconds to wait for the relay to count every subscriber.")
    var connectTimeout: Double = 120

    @Option(help: "Where to write the results as JSON.")
    var report: String

    @Option(help: ArgumentHelp(
        "A shell command run as the measured window starts and as it ends, with the argument `start` or `end` and "
            + "the relay's process id in RELAY_PID: for a profiler to count the window alone (fanout_instructions.sh).",
        valueName: "command"))
    var windowCommand: String?

    func validate() throws {
        guard subscribers > 0 else { throw ValidationError("--subscribers must be 1 or more") }
        guard warmup >= 0, seconds > 0, tail > 0 else {
            throw ValidationError("--seconds and --tail must be positive, --warmup not negative")
        }
    }

    /// Reads the input and sets up the log of a run whose relay sends frames by `rule` to `subscribers` in all,
    /// each in its group of `groups` if given.
    /// - Returns: the log, and how many frames the run feeds.
    /// - Throws: `LoadError` when the input is too short for the run or descriptors would run out.
    func prepare(rule: EmitRule, subscribers: Int, groups: [Int]? = nil) throws -> (log: DeliveryLog, frames: Int) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        guard limit.rlim_cur >= rlim_t(subscribers + 64) else {
            throw LoadError("open-file limit \(limit.rlim_cur) is too low for \(subscribers) subscribers (ulimit -n)")
        }
        let feed = try FeedFrames(path: input)
        let frames = { (seconds: Double) in Int((seconds / feed.frameSeconds).rounded()) }
        let total = frames(warmup + seconds + tail)
        guard total <= feed.count else {
            throw LoadError("\(input) holds \(feed.count) frames, fewer than the \(total) to feed")
        }
        let window = frames(warmup)..<frames(warmup + seconds)
        return (DeliveryLog(feed: feed, window: window, rule: rule, subscribers: subscribers, groups: groups), total)
    }
}
