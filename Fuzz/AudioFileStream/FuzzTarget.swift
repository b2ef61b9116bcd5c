import AudioFileStream
import FixtureSupport

/// libFuzzer's entry point: decodes the input as a `FuzzScenario` (control header, then stream bytes), parses it
/// through the public API and stops the run, with the broken invariant, when `StreamInvariants` finds one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let scenario = FuzzScenario(UnsafeRawBufferPointer(start: data, count: count))
    do {
        try StreamInvariants.check(scenario)
    } catch {
        fatalError("invariant broken: \(error)\n  scenario: \(scenario)")
    }
    return 0
}
