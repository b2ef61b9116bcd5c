/// The reader of one chunked container: `ChunkWalker` for its `Container`, as a type of its own.
///
/// The driver holds readers as `any FormatReader`, and a generic walker reached that way runs unspecialized: its
/// container's types are looked up at run time, and its audio copied through value witnesses, for every packet.
/// A concrete type per container has the walker compiled for that container.
protocol ChunkedReader: FormatReader {
    associatedtype Container: ChunkedContainer
    var walker: ChunkWalker<Container> { get set }
    init(walker: ChunkWalker<Container>)
}

extension ChunkedReader {
    init(limits: MetadataLimits) {
        self.init(walker: ChunkWalker(limits: limits))
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        walker.read(input, into: output)
    }

    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        walker.resetForDiscontinuity(endingAt: offset, into: output)
    }
}
