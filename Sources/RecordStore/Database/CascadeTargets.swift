/// The names of the records one record references with `.deleteSelf`, each once, in field
/// order. Most records have none or one, which take no array.
struct CascadeTargets: Sendable, Sequence {
    private(set) var first: String?
    private(set) var rest: [String] = []

    init() {}

    /// Just `name`.
    init(single name: String) {
        first = name
    }

    /// `names` without repeats.

    init(_ names: [String]) {
        var seen = Set<String>()
        let distinct = names.filter { seen.insert($0).inserted }
        first = distinct.first
        rest = Array(distinct.dropFirst())
    }

    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }

    /// The first name, then the rest; allocates nothing.
    struct Iterator: IteratorProtocol {
        var first: String?
        var rest: IndexingIterator<[String]>

        mutating func next() -> String? {
            if let name = first {
                first = nil
                return name
            }
            return rest.next()
        }
    }
}

extension Record {
    /// Names of the records this one references with `.deleteSelf`, in lists too.
    func cascadeTargets() -> CascadeTargets {
        var first: String?
        var others: [String] = []
        // By index, and only references and lists handed on: `for field in fields` copied every
        // field's value out of the array (a retain and a release of its storage each).
        for index in fields.indices {
            switch fields[index].value {
            case .reference, .list: Self.collectCascadeTargets(fields[index].value, first: &first, others: &others)
            default: continue
            }
        }
        guard let first else { return CascadeTargets() }
        // One entry per target, however often the record names it.
        return others.isEmpty ? CascadeTargets(single: first) : CascadeTargets([first] + others)
    }

    /// Adds the `.deleteSelf` targets in `value` (a list's too). A static function with `inout`
    /// state rather than a nested one capturing it: a recursive local function's captures were
    /// boxed on the heap, an allocation per saved record.
    private static func collectCascadeTargets(_ value: FieldValue, first: inout String?, others: inout [String]) {
        switch value {
        case .reference(let reference) where reference.action == .deleteSelf:
            let name = reference.recordID.recordName
            if first == nil { first = name } else if name != first { others.append(name) }
        case .list(let values):
            for value in values { collectCascadeTargets(value, first: &first, others: &others) }
        default:
            break
        }
    }
}
