import StorageKit

/// The routes the server answers, as (method, path pattern) pairs, filled once while the
/// router is built: the error middleware reads it to tell a path answered with other methods
/// (405, with `Allow`) from one that does not exist (404).
final class RouteTable: Sendable {
    private let routes = LockedValue<[(method: String, path: String)]>([])

    func set(_ routes: [(method: String, path: String)]) {
        self.routes.withLock { $0 = routes }
    }

    /// The methods the server answers on `path` (`{name}` in a pattern matches any one segment).
    func methods(for path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return routes.withLock { routes in
            routes.filter { route in
                let pattern = route.path.split(separator: "/", omittingEmptySubsequences: true)
                return pattern.count == segments.count
                    && zip(pattern, segments).allSatisfy { $0.0.hasPrefix("{") && $0.0.hasSuffix("}") || $0.0 == $0.1 }
            }.map(\.method)
        }
    }
}
