/// What the segmenter made or let go, in the order a server or a folder must take them: a part's file exists
/// before the playlist names it, and a file goes only once no playlist names it.
public enum HLSChange: Sendable {
    /// An initialization section, before the first part that needs it.
    case initSection(name: String, bytes: [UInt8])
    /// A part of the segment under way, complete.
    case part(name: String, bytes: [UInt8])
    /// A segment, complete: its parts' bytes one after another.
    case segment(name: String, bytes: [UInt8])
    /// Files no playlist names any more: segments and parts that left the window, and sections they needed.
    case removed([String])
    /// The stream ended: the playlist is final.
    case ended
}
