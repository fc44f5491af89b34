/// The `capacity` elements with the largest scores seen; ties keep the earlier one.
///
/// A sorted array of at most `capacity` entries: a score not above the smallest kept is refused
/// by ``admits(_:)`` with one comparison, before the caller builds the element, so a million
/// offers cost little more than a million comparisons.
struct TopList<Element> {
    let capacity: Int
    private(set) var entries: [(score: Int, element: Element)] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The kept elements, largest score first.
    var elements: [Element] { entries.map(\.element) }

    /// Whether an element of `score` would be kept.
    func admits(_ score: Int) -> Bool {
        guard capacity > 0 else { return false }
        guard entries.count == capacity, let smallest = entries.last else { return true }
        return score > smallest.score
    }

    /// Keeps `element` if its score is among the largest so far.
    mutating func offer(_ element: Element, score: Int) {
        guard admits(score) else { return }
        if entries.count == capacity { entries.removeLast() }
        let index = entries.firstIndex { score > $0.score } ?? entries.count
        entries.insert((score, element), at: index)
    }
}
