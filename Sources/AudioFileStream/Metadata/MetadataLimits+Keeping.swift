extension MetadataLimits {
    /// How many bytes of the next field a reader may keep, when `keptSoFar` bytes of the tag are already kept.
    /// A picture may keep its data plus its own small header (MIME type, description), bounded like a field.
    func keepLimit(isPicture: Bool, keptSoFar: Int) -> Int {
        let fieldLimit = isPicture ? maxArtworkBytes + maxFieldBytes : maxFieldBytes
        return max(0, min(fieldLimit, maxTagBytes - keptSoFar))
    }
}
