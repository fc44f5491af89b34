/// A zone's record types, interned to small ids: every type ever saved in the zone (its ids are
/// never reused, so this is also the set of types a query may ask for). Zones hold few types, so
/// a save finds its type by comparing with the last one used, or a short scan, without hashing.
struct TypeTable: Sendable {
    private(set) var names: [String] = []
    /// Name → id, kept once there are too many types to scan.
    private var ids: [String: Int32] = [:]
    private var lastUsed: Int32 = 0
    private static let scanLimit = 16

    /// The id of `name`, if it was ever interned.
    func id(of name: String) -> Int32? {
        if names.count > Self.scanLimit { return ids[name] }
        return names.firstIndex(of: name).map(Int32.init)
    }

    func contains(_ name: String) -> Bool { id(of: name) != nil }

    /// The name of `id`; "" for an id this table never gave (only read from a damaged snapshot).
    func name(_ id: Int32) -> String { names.indices.contains(Int(id)) ? names[Int(id)] : "" }

    /// The id of `name`, interned if new.
    mutating func intern(_ name: String) -> Int32 {
        if names.indices.contains(Int(lastUsed)), names[Int(lastUsed)] == name { return lastUsed }
        let id = self.id(of: name) ?? add(name)
        lastUsed = id
        return id
    }

    private mutating func add(_ name: String) -> Int32 {
        let id = Int32(names.count)
        names.append(name)
        if names.count > Self.scanLimit {
            if ids.isEmpty { for (index, known) in names.enumerated() { ids[known] = Int32(index) } } else { ids[name] = id }
        }
        return id
    }

    init() {}

    /// A table holding `names` under their positions as ids; nil if a name is there twice.
    init?(restoring names: [String]) {
        for name in names {
            guard id(of: name) == nil else { return nil }
            _ = add(name)
        }
    }
}
