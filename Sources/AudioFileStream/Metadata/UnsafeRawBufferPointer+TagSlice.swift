extension UnsafeRawBufferPointer {
    /// The part of these bytes that falls within `range`, when they start at `offset`; both are counted from
    /// the same origin (a tag's first byte). Lets a tag reader pick its body out of any chunk.
    func slice(startingAt offset: Int, within range: Range<Int>) -> UnsafeRawBufferPointer {
        let lower = Swift.min(Swift.max(range.lowerBound - offset, 0), count)
        let upper = Swift.max(Swift.min(range.upperBound - offset, count), lower)
        return UnsafeRawBufferPointer(rebasing: self[lower..<upper])
    }
}
