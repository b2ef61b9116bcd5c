import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Network errors as logs, `status` and `source` events show them: one plain line ("connection refused", "name
/// not found", "timed out", "certificate not trusted: self-signed"), never a library's dump of its internals.
enum NetworkErrorText {
    /// The line for `error`.
    /// - Parameter peerCertificate: the certificate the server presented, for a TLS error: it tells why it was
    ///   not trusted.
    static func describe(_ error: Error, peerCertificate: NIOSSLCertificate? = nil) -> String {
        switch error {
        case let error as NIOConnectionError:
            // Every address tried failed; the first says why as well as any.
            if let failure = error.connectionErrors.first { return describe(failure.error) }
            return "name not found"
        case is SocketAddressError.UnknownHost:
            return "name not found"
        case let error as IOError:
            return describe(errno: error.errnoCode)
        case ChannelError.connectTimeout:
            return "timed out"
        case NIOSSLError.handshakeFailed(.sslError(let stack))
            where stack.contains { $0.description.contains("CERTIFICATE_VERIFY_FAILED") }:
            return "certificate not trusted" + (peerCertificate.map { ": " + distrust(of: $0) } ?? "")
        case NIOSSLError.handshakeFailed:
            return "TLS handshake failed"
        case NIOSSLError.uncleanShutdown:
            return "the server closed the connection"
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return "certificate not valid for this host name"
        case HTTPParserError.invalidEOFState:
            // A server killed mid-body: its answer began as HTTP, and the bytes stopped within a chunk.
            return "the connection closed within the response"
        case is HTTPParserError:
            return "not an HTTP response"
        default:
            return String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        }
    }

    /// The system's message for `errno`, in lower case, shortened where it says more than needed.
    static func describe(errno code: Int32) -> String {
        switch code {
        case ETIMEDOUT: "timed out"
        case ECONNRESET: "connection reset"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    /// Why a certificate that failed verification is not trusted, from what it says of itself.
    private static func distrust(of certificate: NIOSSLCertificate) -> String {
        let now = time(nil)
        if certificate.notValidAfter < now { return "expired" }
        if certificate.notValidBefore > now { return "not yet valid" }
        if certificate.subjectName == certificate.issuerName { return "self-signed" }
        return "unknown issuer"
    }
}
