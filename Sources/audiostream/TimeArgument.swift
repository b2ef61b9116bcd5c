import ArgumentParser

/// A time in a file: seconds (`5.25`) or `HH:MM:SS.mmm` (`00:01:05.250`, `1:05.25`).
struct TimeArgument: ExpressibleByArgument, CustomStringConvertible {
    let seconds: Double

    init?(argument: String) {
        let fields = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var seconds = 0.0
        for (index, field) in fields.enumerated() {
            // Hours and minutes are whole; only the last field has a fraction, and minutes and seconds after
            // another field stay below 60.
            let isLast = index == fields.count - 1
            guard !field.isEmpty, field.allSatisfy({ $0.isNumber || (isLast && $0 == ".") }),
                  let value = Double(field), value.isFinite, index == 0 || value < 60 else { return nil }
            seconds = seconds * 60 + value
        }
        self.seconds = seconds
    }

    var description: String { "\(seconds)" }
}
