import AudioStreamProtocol
import Testing

/// A subscriber's hello as docs/protocol.md states it.
@Suite struct HelloTests {
    static func read(_ text: String) throws -> Hello { try Hello(json: Array(text.utf8)) }

    @Test func aHelloReadsBackAsWritten() throws {
        let hello = Hello(kinds: [.packets, .metadata], pcm: PCMRequest(encoding: .f32), burstSeconds: 2.5,
                          artwork: true)
        #expect(try Hello(json: Array(hello.json.text.utf8)) == hello)
        let fixed = Hello(kinds: [.pcm], pcm: PCMRequest(encoding: .s16, sampleRate: 48000, channels: 2))
        #expect(try Hello(json: Array(fixed.json.text.utf8)) == fixed)
    }

    /// `pcm` is an encoding's name, or an object that may also fix the rate and channel count.
    @Test func pcmIsANameOrAnObject() throws {
        #expect(try Self.read(#"{"protocol":1,"kinds":["pcm"]}"#).pcm == PCMRequest(encoding: .s16))
        #expect(try Self.read(#"{"protocol":1,"kinds":["pcm"],"pcm":"f32"}"#).pcm == PCMRequest(encoding: .f32))
        #expect(try Self.read(#"{"protocol":1,"kinds":["pcm"],"pcm":{"format":"f32","rate":44100,"channels":1}}"#).pcm
            == PCMRequest(encoding: .f32, sampleRate: 44100, channels: 1))
        #expect(try Self.read(#"{"protocol":1,"kinds":["pcm"],"pcm":{"rate":22050}}"#).pcm
            == PCMRequest(encoding: .s16, sampleRate: 22050))
    }

    @Test(arguments: [
        (#"{"rate":7999}"#, "pcm rate must be an integer from 8000 to 192000, not 7999"),
        (#"{"rate":44100.5}"#, "pcm rate must be an integer from 8000 to 192000, not 44100.5"),
        (#"{"channels":3}"#, "pcm channels must be an integer from 1 to 2, not 3"),
        (#"{"channels":true}"#, "pcm channels must be an integer from 1 to 2, not 1"),
        (#"{"format":"s24"}"#, "pcm format must be \"s16\" or \"f32\", not s24"),
        (#""u8""#, "pcm format must be \"s16\" or \"f32\", not u8"),
    ])
    func aBadPCMRequestIsRefused(pcm: String, reason: String) throws {
        #expect(throws: WireError.badHello(reason)) {
            try Self.read(#"{"protocol":1,"kinds":["pcm"],"pcm":"# + pcm + "}")
        }
    }

    @Test func artworkIsOptInAndMustBeABoolean() throws {
        #expect(try Self.read(#"{"protocol":1,"kinds":["metadata"]}"#).artwork == false)
        #expect(try Self.read(#"{"protocol":1,"kinds":["metadata"],"artwork":true}"#).artwork == true)
        #expect(throws: WireError.badHello("artwork must be true or false, not yes")) {
            try Self.read(#"{"protocol":1,"kinds":["metadata"],"artwork":"yes"}"#)
        }
    }
}
