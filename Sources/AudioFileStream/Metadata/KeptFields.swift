/// The fields a tag reader keeps, charged against `MetadataLimits.maxTagBytes`. Once that is spent, later fields
/// are dropped as they stream past, so a tag of millions of tiny frames or items stays as bounded as one big one.
struct KeptFields {
    private(set) var fields: [RawTagField] = []
    /// What the kept fields hold, each charged its content plus `overhead`.
    private(set) var byteCount = 0

    /// What keeping a field costs beyond its content: its record and its strings' storage.
    static let overhead = 64

    mutating func record(_ field: RawTagField, limits: MetadataLimits) {
        let cost = Self.overhead + field.key.utf8.count + field.value.keptByteCount
        guard byteCount + cost <= limits.maxTagBytes else { return }
        fields.append(field)
        byteCount += cost
    }
}
