/// libFuzzer's entry point for `audiostream tags --set … -o`: edits the input's tags in its own key space and stops
/// the run, with the broken invariant, when `TagEditInvariants` finds one or anything on the way traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
    do {
        try TagEditInvariants.check(input)
    } catch {
        fatalError("invariant broken: \(error)")
    }
    return 0
}
