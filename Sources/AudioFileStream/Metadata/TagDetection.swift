/// What lies at a position where a frame header was expected.
enum TagDetection {
    case notATag
    /// At least this many bytes, counted from the same start, are needed to decide.
    case needMoreData(Int)
    case tag(TagReader)
}
