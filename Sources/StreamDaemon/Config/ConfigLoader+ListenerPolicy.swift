import Foundation
import Yams

/// `maxListenerDuration` and `overflow`, in `http:` for every mount and in a stream for its own, and a stream's
/// `maxListeners`.
extension ConfigLoader {
    static let listenerPolicyKeys = ["maxListeners", "maxListenerDuration", "overflow"]

    /// The policy `fields` state under `key` (`http` or a stream's); `maxListeners` is a stream's own (the server's
    /// counts its connections).
    func listenerPolicy(_ fields: [String: Node], key: String, ownMaximum: Bool) throws -> ListenerPolicy {
        var policy = ListenerPolicy()
        if ownMaximum, let node = fields["maxListeners"] {
            guard node.scalar != nil, let maximum = node.int, maximum > 0 else {
                throw error(node, "\(key).maxListeners", "expected a whole number of listeners, 1 or more")
            }
            policy.maxListeners = maximum
        }
        policy.maxListenerDuration = try seconds(fields["maxListenerDuration"], key: "\(key).maxListenerDuration",
                                                 maximum: Self.maximumSeconds * 365)
        if let node = fields["overflow"] {
            policy.overflow = try overflow(node, key: "\(key).overflow")
        }
        return policy
    }

    /// `[http://edge1:8000, …]`: servers' addresses, with no path.
    private func overflow(_ node: Node, key: String) throws -> [URL] {
        guard let items = node.sequence else { throw error(node, key, "expected a list of servers such as http://edge1:8000") }
        return try items.enumerated().map { index, item in
            let text = try string(item, key: "\(key)[\(index)]")
            guard let components = URLComponents(string: text), ["http", "https"].contains(components.scheme),
                  let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
                  components.user == nil, components.query == nil, let url = components.url
            else { throw error(item, "\(key)[\(index)]", "expected a server's address such as http://edge1:8000 (got '\(text)')") }
            return url
        }
    }
}
