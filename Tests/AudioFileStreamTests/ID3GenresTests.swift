import Testing
@testable import AudioFileStream

/// Genre references as ID3v2.3 §4.2.1 (TCON) defines them, with the names of the ID3v1 genre list.
@Suite struct ID3GenresTests {
    @Test(arguments: [
        ("(13)", ["Pop"]),
        ("13", ["Pop"]),
        ("(13)Refinement", ["Pop", "Refinement"]),
        ("(4)(13)", ["Disco", "Pop"]),
        ("(RX)", ["Remix"]),
        ("(CR)", ["Cover"]),
        ("RX", ["Remix"]),
        ("(17)Rock", ["Rock"]),
        ("((Parenthesised)", ["(Parenthesised)"]),
        ("Synthpop", ["Synthpop"]),
        ("(999)", ["Unknown"]),
        ("200", ["Unknown"]),
        ("2024", ["2024"]),
        ("(13", ["(13"]),
        ("", []),
    ])
    func resolves(value: String, names: [String]) {
        #expect(ID3Genres.resolve(value) == names)
    }

    @Test func theTableHasTheID3v1AndWinampGenres() {
        // ID3v1 defines 0–79 (79 Hard Rock); Winamp's extension ends at 191 (Psybient).
        #expect(ID3Genres.names.count == 192)
        #expect(ID3Genres.names[0] == "Blues")
        #expect(ID3Genres.names[79] == "Hard Rock")
        #expect(ID3Genres.names[80] == "Folk")
        #expect(ID3Genres.names[191] == "Psybient")
    }
}
