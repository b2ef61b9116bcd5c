/// Where a stream's frames fall on the wall clock: `every` ends pieces on its multiples.
struct PieceClock {
    /// The wall-clock time of the stream's frame 0, in seconds since 1970.
    var origin: Double

    /// The stream position of the first multiple of `every` seconds of local time after `start`, at `rate`
    /// frames a second; nil without `every`.
    func split(after start: Double, every: Int?, rate: Double) -> Int64? {
        guard let every, rate > 0 else { return nil }
        let offset = Double(WallClock.utcOffset(at: start))
        let boundary = (((start + offset) / Double(every)).rounded(.down) + 1) * Double(every) - offset
        return Int64(((boundary - origin) * rate).rounded(.up))
    }
}
