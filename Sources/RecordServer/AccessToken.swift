import Crypto
import Foundation

/// A database's bearer token: 256 random bits, given to its owner once and kept by the server
/// only as a SHA-256 digest, compared in constant time.
package enum AccessToken {
    /// What every token starts with: a token never starts with "-", which a command line would
    /// take for an option (one base64url token in 64 did: `notes sync --token -…` failed), and
    /// a token is recognisable where it should not be (a log, a commit).
    package static let prefix = "rl_"

    /// A new random token: ``prefix``, then 32 bytes from the system's cryptographic generator
    /// (`getrandom`) as base64url without padding (46 characters in all, safe in a header, a URL,
    /// a shell and a command line's option).
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The SHA-256 digest of a token, what the token file keeps.
    package static func digest(of token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
    }

    /// Whether two digests are equal, in time that depends only on their lengths: no early exit
    /// tells an attacker how many leading bytes of a guess were right.
    package static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
