extension String {
    /// The text as HTML or XML character data, or an attribute's value: markup characters escaped, and the control
    /// characters XML 1.0 forbids (a title or user agent may hold any) written as spaces.
    var markupEscaped: String {
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
