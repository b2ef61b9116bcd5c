/// libFuzzer's entry point for what a station controls in the daemon: decodes the input as an `ICYScenario`
/// (metaint and chunking, then an ICY body) and stops the run, with the broken invariant, when `ICYInvariants`
/// finds one or anything on the way traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let scenario = ICYScenario(UnsafeRawBufferPointer(start: data, count: count))
    do {
        try ICYInvariants.check(scenario)
    } catch {
        fatalError("invariant broken: \(error)\n  scenario: \(scenario)")
    }
    return 0
}
