import FixtureSupport

/// libFuzzer's entry point for the HLS segmenter: decodes the input as a `FuzzScenario` (control header, then
/// stream bytes), cuts what the parser finds into segments and parts with the settings its seed picks, and stops
/// the run, with the broken invariant, when `HLSInvariants` finds one or anything on the way traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let scenario = FuzzScenario(UnsafeRawBufferPointer(start: data, count: count))
    do {
        try HLSInvariants.check(scenario)
    } catch {
        fatalError("invariant broken: \(error)\n  scenario: \(scenario)")
    }
    return 0
}
