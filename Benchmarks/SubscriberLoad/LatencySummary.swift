/// Percentiles of a set of latencies, in milliseconds.
struct LatencySummary: Encodable {
    let samples: Int
    let p50: Double
    let p99: Double
    let max: Double
    let mean: Double

    /// Nearest-rank percentiles of `nanoseconds`; all zero when there are none.
    init(nanoseconds: [Int64]) {
        let sorted = nanoseconds.sorted()
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return Double(sorted[Swift.max(0, index)]) / 1e6
        }
        samples = sorted.count
        p50 = rank(0.50)
        p99 = rank(0.99)
        max = rank(1)
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1e6
    }
}
