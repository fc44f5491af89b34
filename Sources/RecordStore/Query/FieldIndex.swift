/// An index of one key of one record type in one zone: each live record of the type under the
/// value it holds at the key (`.missing` when none), the distinct values kept sorted.
///
/// Equality looks a value up in `names`; an ordered walk goes through `sortedValues` (kept sorted
/// by binary-search insertion and removal, so each change costs one search and one shift of the
/// value array, never a sort). `valueOfName` lets a delete or update unlink a record without
/// reading its old version from the log. `stringsOfFolded` answers CloudKit's case-insensitive
/// `==` on a string with one lookup: each folded text (compared byte for byte, as the predicate
/// compares it without an index) to the distinct strings that fold to it.
struct FieldIndex: Sendable {
    let key: String
    private(set) var names: [OrderedValue: Set<String>] = [:]
    private(set) var sortedValues: [OrderedValue] = []
    private(set) var valueOfName: [String: OrderedValue] = [:]
    private(set) var stringsOfFolded: [ByteString: [OrderedValue]] = [:]

    init(key: String) { self.key = key }

    /// An index of `entries` (record name and value) built in one go: the values sorted once,
    /// not inserted one by one.
    init(key: String, entries: [(name: String, value: OrderedValue)]) {
        self.key = key
        valueOfName.reserveCapacity(entries.count)
        for entry in entries {
            names[entry.value, default: []].insert(entry.name)
            valueOfName[entry.name] = entry.value
        }
        sortedValues = names.keys.sorted()
        for value in sortedValues { addFolded(value) }
    }

    /// Files `name` under its record's value at `key`, moving it from its old value if it had one.
    mutating func insert(name: String, record: Record) {
        let value = OrderedValue(record.queryValue(forKey: key))
        if let old = valueOfName[name] {
            if old == value { return }
            remove(name: name)
        }
        valueOfName[name] = value
        if names[value]?.insert(name) == nil {
            names[value] = [name]
            sortedValues.insert(value, at: lowerBound(of: value))
            addFolded(value)
        }
    }

    /// Removes `name`, if it is indexed.
    mutating func remove(name: String) {
        guard let value = valueOfName.removeValue(forKey: name) else { return }
        names[value]?.remove(name)
        if names[value]?.isEmpty == true {
            names[value] = nil
            let index = lowerBound(of: value)
            if index < sortedValues.count, sortedValues[index] == value { sortedValues.remove(at: index) }
            removeFolded(value)
        }
    }

    /// Files a new distinct string value under its folded text.
    private mutating func addFolded(_ value: OrderedValue) {
        guard case .string(let text) = value else { return }
        stringsOfFolded[ByteString(CompiledPredicate.fold(text.value)), default: []].append(value)
    }

    /// Unfiles a distinct string value no record holds any more.
    private mutating func removeFolded(_ value: OrderedValue) {
        guard case .string(let text) = value else { return }
        let folded = ByteString(CompiledPredicate.fold(text.value))
        stringsOfFolded[folded]?.removeAll { $0 == value }
        if stringsOfFolded[folded]?.isEmpty == true { stringsOfFolded[folded] = nil }
    }

    /// The first index of `sortedValues` whose value is not less than `value`.
    func lowerBound(of value: OrderedValue) -> Int {
        var low = 0
        var high = sortedValues.count
        while low < high {
            let middle = (low + high) / 2
            if sortedValues[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The names of the records holding `value`.
    func names(holding value: OrderedValue) -> Set<String> {
        names[value] ?? []
    }

    /// The names of the records holding a string that folds to `folded` (case-insensitive
    /// equality): one lookup, then the few distinct strings that fold to it.
    func names(holdingTextFoldedTo folded: String) -> Set<String> {
        var result = Set<String>()
        for value in stringsOfFolded[ByteString(folded)] ?? [] {
            if let holding = names[value] { result.formUnion(holding) }
        }
        return result
    }
}
