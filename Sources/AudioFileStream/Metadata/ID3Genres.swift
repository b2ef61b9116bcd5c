/// The ID3v1 genre numbers (0–79 from ID3v1, 80–191 added by Winamp) and how ID3v2 genre text refers to them.
enum ID3Genres {
    /// Genre names by number.
    static let names: [String] = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial", "Alternative",
        "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop", "Vocal", "Jazz+Funk",
        "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game", "Sound Clip", "Gospel", "Noise",
        "Alt. Rock", "Bass", "Soul", "Punk", "Space", "Meditative", "Instrumental Pop", "Instrumental Rock",
        "Ethnic", "Gothic", "Darkwave", "Techno-Industrial", "Electronic", "Pop-Folk", "Eurodance", "Dream",
        "Southern Rock", "Comedy", "Cult", "Gangsta Rap", "Top 40", "Christian Rap", "Pop/Funk", "Jungle",
        "Native American", "Cabaret", "New Wave", "Psychedelic", "Rave", "Showtunes", "Trailer", "Lo-Fi", "Tribal",
        "Acid Punk", "Acid Jazz", "Polka", "Retro", "Musical", "Rock & Roll", "Hard Rock", "Folk", "Folk-Rock",
        "National Folk", "Swing", "Fast-Fusion", "Bebop", "Latin", "Revival", "Celtic", "Bluegrass", "Avantgarde",
        "Gothic Rock", "Progressive Rock", "Psychedelic Rock", "Symphonic Rock", "Slow Rock", "Big Band", "Chorus",
        "Easy Listening", "Acoustic", "Humour", "Speech", "Chanson", "Opera", "Chamber Music", "Sonata", "Symphony",
        "Booty Bass", "Primus", "Porn Groove", "Satire", "Slow Jam", "Club", "Tango", "Samba", "Folklore", "Ballad",
        "Power Ballad", "Rhythmic Soul", "Freestyle", "Duet", "Punk Rock", "Drum Solo", "A Cappella", "Euro-House",
        "Dance Hall", "Goa", "Drum & Bass", "Club-House", "Hardcore", "Terror", "Indie", "BritPop", "Afro-Punk",
        "Polsk Punk", "Beat", "Christian Gangsta Rap", "Heavy Metal", "Black Metal", "Crossover",
        "Contemporary Christian", "Christian Rock", "Merengue", "Salsa", "Thrash Metal", "Anime", "JPop", "Synthpop",
        "Abstract", "Art Rock", "Baroque", "Bhangra", "Big Beat", "Breakbeat", "Chillout", "Downtempo", "Dub", "EBM",
        "Eclectic", "Electro", "Electroclash", "Emo", "Experimental", "Garage", "Global", "IDM", "Illbient",
        "Industro-Goth", "Jam Band", "Krautrock", "Leftfield", "Lounge", "Math Rock", "New Romantic", "Nu-Breakz",
        "Post-Punk", "Post-Rock", "Psytrance", "Shoegaze", "Space Rock", "Trop Rock", "World Music", "Neoclassical",
        "Audiobook", "Audio Theatre", "Neue Deutsche Welle", "Podcast", "Indie Rock", "G-Funk", "Dubstep",
        "Garage Rock", "Psybient",
    ]

    /// The genre names a genre value means (ID3v2.3 §4.2.1 TCON), resolved the way mutagen resolves them:
    /// `13` and `(13)` are Pop, `(RX)` Remix, `(CR)` Cover; text after the references (`(13)Britpop`) refines
    /// them and is kept as another name, `((` escaping a literal parenthesis; a number without a name is Unknown.
    static func resolve(_ value: String) -> [String] {
        if isDigits(value), let number = Int(value), number < 256 { return [name(number)] }
        if let reference = reference(value) { return [reference] }
        var names: [String] = []
        var rest = Substring(value)
        // References are numbers, RX or CR in parentheses at the start of the value.
        while rest.hasPrefix("("), let close = rest.firstIndex(of: ")") {
            let inside = rest[rest.index(after: rest.startIndex)..<close]
            guard isDigits(inside) || inside == "RX" || inside == "CR" else { break }
            names.append(reference(String(inside)) ?? Int(inside).map(name) ?? "Unknown")
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix("((") { rest = rest.dropFirst() }
        if !rest.isEmpty && !names.contains(String(rest)) { names.append(String(rest)) }
        return names
    }

    private static func isDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func name(_ number: Int) -> String {
        names.indices.contains(number) ? names[number] : "Unknown"
    }

    private static func reference(_ value: String) -> String? {
        switch value {
        case "RX": "Remix"
        case "CR": "Cover"
        default: nil
        }
    }
}
