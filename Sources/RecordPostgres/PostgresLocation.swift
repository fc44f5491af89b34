import Foundation
import PostgresNIO

/// Where a PostgreSQL server is, as a `postgres://user:password@host:port/database` URL (the
/// form `psql` and libpq take), turned into the client's configuration.
package struct PostgresLocation: Sendable, Equatable {
    package init(host: String, port: Int, username: String, password: String?, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    package var host: String
    package var port: Int
    package var username: String
    package var password: String?
    package var database: String

    /// The location `url` names; the port defaults to 5432, the database to the user's name.
    ///
    /// - Throws: ``PostgresLogError`` (`badLocation`) for another scheme, no host or no user.
    package init(url text: String) throws {
        func bad(_ reason: String) -> PostgresLogError { PostgresLogError(.badLocation(reason), database: "-", zone: "-") }
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw bad("\(text.debugDescription) is not a postgres:// URL")
        }
        guard let host = url.host, !host.isEmpty else { throw bad("the URL names no host") }
        guard let user = url.user, !user.isEmpty else { throw bad("the URL names no user (postgres://USER@HOST/DATABASE)") }
        self.host = host
        port = url.port ?? 5432
        username = user
        password = url.password
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = path.isEmpty ? user : path
    }

    /// The client's configuration: plain TCP (TLS is for a later change; the cluster runs on
    /// loopback or a private network).
    package var configuration: PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: .disable)
    }
}
