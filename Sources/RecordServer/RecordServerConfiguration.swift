import RecordLog

/// How a ``RecordServer`` listens and what it allows.
public struct RecordServerConfiguration: Sendable {
    /// A certificate chain and its private key, both PEM files, for HTTPS.
    public struct TLS: Sendable {
        /// The PEM file of the certificate chain, the server's certificate first.
        public var certificatePath: String
        /// The PEM file of the certificate's private key.
        public var privateKeyPath: String

        /// HTTPS with this certificate and key (read when the server starts).
        public init(certificatePath: String, privateKeyPath: String) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
        }
    }

    /// The root directory: the databases' stores and the token file (``DatabaseRoot``); with
    /// ``postgres``, the node's cache: one mirror of each database it serves.
    public var root: String
    /// The `postgres://` URL of the cluster's PostgreSQL, when the databases live there: then any
    /// number of servers serve any database, each from a disposable mirror under ``root``, and
    /// the tokens are rows of PostgreSQL, not the root's `tokens` file. Nil: the root's files.
    public var postgres: String?
    /// How many connections to ``postgres`` this server opens at most (PostgreSQL's
    /// `max_connections`, 100 by default, bounds them across every node).
    public var postgresConnections: Int = 20
    /// How often a database served from PostgreSQL looks for other nodes' commits by itself, so
    /// that its notification streams hear them: 25 ms. Every request catches up first anyway.
    public var postgresRefreshInterval: Duration = .milliseconds(25)
    /// The address to listen on; loopback unless told otherwise.
    public var host: String
    /// The port; 0 binds a free one (``RecordServer`` reports which).
    public var port: Int
    /// HTTPS when set; plain HTTP otherwise.
    public var tls: TLS?
    /// The largest request body, in bytes: 16 MiB by default, room for 400 records of CloudKit's
    /// typical size (a record's encoded limit is 1 MB; larger requests are refused with
    /// `LIMIT_EXCEEDED`, and a client splits them).
    public var maximumRequestBodySize: Int
    /// How many requests one database serves at once before answering `THROTTLED` with a
    /// `retryAfter`: a bound on memory and on the queue in front of its commit lock.
    public var maximumConcurrentRequestsPerDatabase: Int
    /// The `retryAfter` of a `THROTTLED` answer, in seconds.
    public var throttledRetryAfter: Double
    /// How often a notification stream with nothing to say sends a comment line, so that a
    /// client (and any proxy) notices a dead connection: 15 seconds.
    public var heartbeatInterval: Duration
    /// How large a page of changes grows before it ends with `moreComing`, in bytes of the
    /// records' stored values (their JSON is larger, by about half, before gzip): 4 MiB, so that
    /// "as many as possible" (`resultsLimit` 0 or absent) is a few MB per answer, not a database.
    public var maximumPageBytes: Int
    /// The stores' durability: `.fsync` (every acknowledged commit is on disk) unless a test or
    /// a benchmark says otherwise.
    public var durability: LogOptions.Durability

    /// A configuration with the defaults above, listening on `host:port`.
    public init(
        root: String, host: String = "127.0.0.1", port: Int = 8080, tls: TLS? = nil,
        maximumRequestBodySize: Int = 16 * 1024 * 1024, maximumConcurrentRequestsPerDatabase: Int = 256,
        throttledRetryAfter: Double = 1, heartbeatInterval: Duration = .seconds(15), maximumPageBytes: Int = 4 * 1024 * 1024,
        durability: LogOptions.Durability = .fsync
    ) {
        self.root = root
        self.host = host
        self.port = port
        self.tls = tls
        self.maximumRequestBodySize = maximumRequestBodySize
        self.maximumConcurrentRequestsPerDatabase = maximumConcurrentRequestsPerDatabase
        self.throttledRetryAfter = throttledRetryAfter
        self.heartbeatInterval = heartbeatInterval
        self.maximumPageBytes = maximumPageBytes
        self.durability = durability
    }
}
