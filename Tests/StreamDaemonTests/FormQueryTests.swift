@testable import StreamDaemon
import Testing

/// Queries read as the WHATWG URL Standard's application/x-www-form-urlencoded parser reads them (§5.1): split on
/// `&` with empty pieces skipped, name and value split at the first `=`, `+` a space, `%XX` a byte and a `%`
/// without two hex digits left as it is; of a repeated name, the first.
@Suite struct FormQueryTests {
    @Test func fieldsAreDecoded() {
        let query = FormQuery("mode=updinfo&song=Caf%C3%A9+del+Mar&mount=%2Fjazz&&empty=&flag&a=b=c&song=second")
        #expect(query.text("mode") == "updinfo")
        #expect(query.text("song") == "Café del Mar")
        #expect(query.text("mount") == "/jazz")
        #expect(query.text("empty") == "")
        #expect(query.text("flag") == "")
        #expect(query.text("a") == "b=c")
        #expect(query.text("missing") == nil)
    }

    @Test func namesAreDecodedToo() {
        let query = FormQuery("stream+title=x&%5Fmsn=7")
        #expect(query.text("stream title") == "x")
        #expect(query.text("_msn") == "7")
    }

    @Test func brokenEscapesStayAsTheyAre() {
        let query = FormQuery("a=100%&b=%zz&c=%4&d=%ff")
        #expect(query.text("a") == "100%")
        #expect(query.text("b") == "%zz")
        #expect(query.text("c") == "%4")
        #expect(query["d"] == [0xFF])
        #expect(query.text("d") == nil, "0xFF alone is not UTF-8")
    }

    @Test func noQueryHasNoFields() {
        #expect(FormQuery(nil)["a"] == nil)
        #expect(FormQuery("")["a"] == nil)
    }
}
