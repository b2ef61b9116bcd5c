@testable import StreamDaemon
import Testing

/// The password comparison reads the same bytes of the expected password whatever is sent, so its time tells an
/// attacker nothing of the password, its length included: counted here by the reads, never timed.
@Suite struct BasicCredentialsTests {
    /// Bytes that count how often they are read.
    final class Counter: @unchecked Sendable {
        var reads = 0
    }

    struct CountingBytes: RandomAccessCollection {
        let bytes: [UInt8]
        let counter: Counter
        var startIndex: Int { 0 }
        var endIndex: Int { bytes.count }
        subscript(position: Int) -> UInt8 {
            counter.reads += 1
            return bytes[position]
        }
    }

    static func reads(given: String, expected: String) -> (matched: Bool, reads: Int) {
        let counter = Counter()
        let matched = BasicCredentials.matches(Array(given.utf8),
                                               expected: CountingBytes(bytes: Array(expected.utf8), counter: counter))
        return (matched, counter.reads)
    }

    @Test(arguments: ["hackme", "hackm", "hackme!", "", "x", "hackmf", "a much longer guess than the password"])
    func theExpectedPasswordIsReadOnceForEachByteSentWhateverItsLength(_ guess: String) {
        let (matched, reads) = Self.reads(given: guess, expected: "hackme")
        #expect(matched == (guess == "hackme"))
        #expect(reads == guess.utf8.count, "\(reads) reads for a guess of \(guess.utf8.count) bytes")
    }

    @Test func onlyTheSamePasswordMatches() {
        #expect(Self.reads(given: "", expected: "").matched)
        #expect(!Self.reads(given: "", expected: "x").matched)
        #expect(!Self.reads(given: "x", expected: "").matched)
        // Read round and round, a password repeated is still not the password.
        #expect(!Self.reads(given: "abab", expected: "ab").matched)
        #expect(!Self.reads(given: "ab", expected: "abab").matched)
        #expect(BasicCredentials(user: "source", password: "Ünï").hasPassword("Ünï"))
        #expect(!BasicCredentials(user: "source", password: "Üni").hasPassword("Ünï"))
    }
}
