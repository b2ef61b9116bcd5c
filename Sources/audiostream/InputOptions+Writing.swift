import AudioFileStream

extension InputOptions {
    /// Parses the input as `parse` does, for a command writing `output`: `handle` takes each event and may
    /// throw, and its first error, or Ctrl-C, ends the input and is thrown. Ctrl-C that ends a read ends the
    /// input too (`Interrupt`): what was read is not the whole input, so it is thrown then as well. An input
    /// without a whole packet gets the error `probe` gives. Artwork is kept as large as `tags --artwork` writes
    /// it, for the output's tags to carry it.
    func parse(writing output: String, _ handle: @escaping (AudioFileStreamEvent) throws -> Void) throws {
        var failure: (any Error)?
        let interrupted = CommandFailure("interrupted: \(output) was not written")
        let stream = try parse(limits: TagsCommand.artworkLimits) { event in
            guard failure == nil else { return }
            do { try handle(event) } catch { failure = error }
        } eachChunk: {
            if let failure { throw failure }
            if Interrupt.requested { throw interrupted }
        }
        if let failure { throw failure }
        if Interrupt.requested { throw interrupted }
        guard stream.counted.packets > 0 else { throw CommandFailure.noPacket(in: input) }
    }
}
