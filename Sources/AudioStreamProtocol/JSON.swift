/// A JSON value whose objects keep their keys in the order written, so output reads the same every run.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        lhs.text == rhs.text
    }

    public static func number(_ value: some BinaryInteger) -> JSON { .int(Int64(value)) }

    /// An optional value, or null.
    public static func optional<T>(_ value: T?, _ transform: (T) -> JSON) -> JSON {
        value.map(transform) ?? .null
    }

    /// The value as compact JSON text.
    public var text: String {
        var text = ""
        write(to: &text)
        return text
    }

    public func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .int(let value): text += String(value)
        case .double(let value):
            if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
                text += String(Int64(value))
            } else if value.isFinite {
                text += String(value)
            } else {
                text += "null"
            }
        case .string(let value): Self.writeString(value, to: &text)
        case .array(let values):
            text += "["
            for (position, value) in values.enumerated() {
                if position > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (position, (key, value)) in members.enumerated() {
                if position > 0 { text += "," }
                Self.writeString(key, to: &text)
                text += ":"
                value.write(to: &text)
            }
            text += "}"
        }
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
