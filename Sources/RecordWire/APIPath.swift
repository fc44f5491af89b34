/// The API's paths, in one place for the server's router, the client and the tests that hold
/// both to `docs/openapi.yaml`. A database's paths are under ``databasePrefix`` followed by the
/// database's name.
package enum APIPath {
    /// `GET`: the server is up (no token).
    package static let health = "/health"
    /// `GET`: metrics in Prometheus' text format (no token).
    package static let metrics = "/metrics"
    /// What every database path starts with; the database's name follows.
    package static let databasePrefix = "/v1/databases"

    /// `POST`: save and delete records.
    package static let recordsModify = "records/modify"
    /// `POST`: fetch records by ID.
    package static let recordsLookup = "records/lookup"
    /// `POST`: run a query, or continue one from its continuation marker.
    package static let recordsQuery = "records/query"
    /// `POST`: the changes of several zones, each from its own token.
    package static let zoneChanges = "changes/zone"
    /// `POST`: the zones changed or deleted since a database token.
    package static let databaseChanges = "changes/database"
    /// `GET`: every zone.
    package static let zonesList = "zones/list"
    /// `POST`: create and delete zones.
    package static let zonesModify = "zones/modify"
    /// `GET`: every subscription.
    package static let subscriptionsList = "subscriptions/list"
    /// `POST`: create, replace and delete subscriptions.
    package static let subscriptionsModify = "subscriptions/modify"
    /// `GET` `subscriptions/{subscriptionID}/notifications`: the subscription's notifications as
    /// Server-Sent Events.
    package static func notifications(_ subscriptionID: String) -> String { "subscriptions/\(subscriptionID)/notifications" }

    /// The path of `endpoint` in `database`, e.g. `/v1/databases/notes/records/modify`.
    package static func database(_ database: String, _ endpoint: String) -> String {
        "\(databasePrefix)/\(database)/\(endpoint)"
    }

    /// The header a request ID travels in, both ways.
    package static let requestIDHeader = "X-Request-ID"
}
