import StreamDaemon
import Testing

/// A subscriber's hello as docs/protocol.md states it.
@Suite struct HelloTests {
    static func read(_ text: String) throws -> Hello { try Hello(json: Array(text.utf8)) }

    @Test func aHelloReadsBackAsWritten() throws {
        let hello = Hello(kinds: [.packets, .metadata], pcmEncoding: .f32, burstSeconds: 2.5, artwork: true)
        #expect(try Hello(json: Array(hello.json.text.utf8)) == hello)
    }

    @Test func artworkIsOptInAndMustBeABoolean() throws {
        #expect(try Self.read(#"{"protocol":1,"kinds":["metadata"]}"#).artwork == false)
        #expect(try Self.read(#"{"protocol":1,"kinds":["metadata"],"artwork":true}"#).artwork == true)
        #expect(throws: WireError.badHello("artwork must be true or false, not yes")) {
            try Self.read(#"{"protocol":1,"kinds":["metadata"],"artwork":"yes"}"#)
        }
    }
}
