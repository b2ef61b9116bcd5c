@testable import StreamDaemon
import Testing

/// What an HLS client asks for, read from its path and query as RFC 8216bis §6.2.5 defines the parameters.
@Suite struct HLSRequestTests {
    static func request(_ name: String, _ query: String?) throws(HLSRefusal) -> HLSRequest {
        try HLSRequest(name: name, query: FormQuery(query))
    }

    @Test func theParametersAreRead() throws {
        #expect(try Self.request("live.m3u8", nil) == .playlist(msn: nil, part: nil, skip: false))
        #expect(try Self.request("live.m3u8", "_HLS_msn=12&_HLS_part=3") == .playlist(msn: 12, part: 3, skip: false))
        #expect(try Self.request("live.m3u8", "_HLS_msn=12&_HLS_skip=YES") == .playlist(msn: 12, part: nil, skip: true))
        #expect(try Self.request("live.m3u8", "_HLS_skip=v2") == .playlist(msn: nil, part: nil, skip: true))
        #expect(try Self.request("live.m3u8", "_HLS_skip=NO&session=x") == .playlist(msn: nil, part: nil, skip: false))
        #expect(try Self.request("part-12.3.aac", "_HLS_msn=1") == .file("part-12.3.aac"))
    }

    @Test(arguments: ["_HLS_part=2", "_HLS_msn=x", "_HLS_msn=-1", "_HLS_msn=3&_HLS_part=", "_HLS_msn=99999999999999999999"])
    func whatTheSpecForbidsIsABadRequest(_ query: String) {
        #expect(throws: HLSRefusal.self) { _ = try Self.request("live.m3u8", query) }
    }
}
