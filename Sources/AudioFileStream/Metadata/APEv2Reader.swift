/// Reads an APEv2 tag that starts with its header, as it streams past: each item's value is kept within
/// `MetadataLimits` and decoded when it ends; the footer is skipped.
struct APEv2Reader {
    private enum State {
        case itemHeader(FieldBuffer)
        /// Collecting the key up to its zero byte.
        case key(APEv2Item, FieldBuffer)
        /// An item whose value is streaming into `valueData`.
        case value(APEv2Item, key: String, left: Int)
        /// All items read, or bytes that are not items: the rest is skipped.
        case ended
    }

    /// The longest key the format allows (APEv2 keys are 2 to 255 characters).
    private static let maxKeyLength = 255

    let header: APEv2Header
    private let limits: MetadataLimits
    private var state: State
    /// The current item's value; held outside `state` so that appending never copies it.
    private var valueData = FieldBuffer(limit: 0)
    private var itemsLeft: Int
    /// The items read so far, in tag order.
    private var kept = KeptFields()
    /// The fields read so far, in order.
    var fields: [RawTagField] { kept.fields }

    init(header: APEv2Header, limits: MetadataLimits) {
        self.header = header
        self.limits = limits
        itemsLeft = header.itemCount
        state = header.itemCount > 0 ? .itemHeader(FieldBuffer(limit: APEv2Item.headerLength)) : .ended
    }

    /// The bytes held: the decoded items and the value being read.
    var keptByteCount: Int { kept.byteCount + valueData.kept.count }

    /// Reads the next bytes of the tag; `offset` is where `bytes` start, counted from the header's first byte.
    mutating func consume(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        let items = bytes.slice(startingAt: offset, within: header.itemsRange)
        var position = 0
        while position < items.count {
            position += step(UnsafeRawBufferPointer(rebasing: items[position...]))
        }
    }

    /// Advances over the start of `bytes` and returns how many bytes that took (at least one).
    private mutating func step(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch state {
        case .itemHeader(var headerBytes):
            let taken = headerBytes.fill(from: bytes)
            guard headerBytes.isFull else {
                state = .itemHeader(headerBytes)
                return taken
            }
            let item = headerBytes.kept.withUnsafeBytes { APEv2Item(header: $0) }
            state = .key(item, FieldBuffer(limit: Self.maxKeyLength))
            return taken
        case .key(let item, var keyBytes):
            let end = bytes.firstIndex(of: 0)
            keyBytes.append(UnsafeRawBufferPointer(rebasing: bytes[..<(end ?? bytes.count)]))
            guard keyBytes.isComplete else {
                state = .ended
                return bytes.count
            }
            guard let end else {
                state = .key(item, keyBytes)
                return bytes.count
            }
            state = startValue(of: item, key: String(decoding: keyBytes.kept, as: UTF8.self))
            return end + 1
        case .value(let item, let key, let left):
            let taken = min(left, bytes.count)
            valueData.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(taken)))
            state = left > taken ? .value(item, key: key, left: left - taken) : finishItem(item, key: key)
            return taken
        case .ended:
            return bytes.count
        }
    }

    private mutating func startValue(of item: APEv2Item, key: String) -> State {
        guard item.valueSize > 0 else { return finishItem(item, key: key) }
        let isPicture = item.kind == .binary && APEv2Item.pictureType(ofKey: key) != nil
        valueData = FieldBuffer(limit: limits.keepLimit(isPicture: isPicture, keptSoFar: kept.byteCount))
        return .value(item, key: key, left: item.valueSize)
    }

    /// Records the item and returns the state for the next one.
    private mutating func finishItem(_ item: APEv2Item, key: String) -> State {
        let value = item.value(key: key, data: valueData, limits: limits)
        valueData = FieldBuffer(limit: 0)
        kept.record(RawTagField(key: key, value: value), limits: limits)
        itemsLeft -= 1
        return itemsLeft > 0 ? .itemHeader(FieldBuffer(limit: APEv2Item.headerLength)) : .ended
    }
}
