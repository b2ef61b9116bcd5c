import AudioFileStream

extension InputOptions {
    /// Parses the input as `parse` does, for a command writing `output`: `handle` takes each event and may
    /// throw, and its first error, or Ctrl-C, ends the input and is thrown.
    func parse(writing output: String, _ handle: @escaping (AudioFileStreamEvent) throws -> Void) throws {
        var failure: (any Error)?
        try parse { event in
            guard failure == nil else { return }
            do { try handle(event) } catch { failure = error }
        } eachChunk: {
            if let failure { throw failure }
            if Interrupt.requested { throw CommandFailure("interrupted: \(output) was not written") }
        }
        if let failure { throw failure }
    }
}
