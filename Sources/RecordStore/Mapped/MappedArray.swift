import RecordLog

/// A growable array of plain values whose elements may start out in a ``MappedFile`` — a view's
/// snapshot — and move to the heap only when the array outgrows them.
///
/// Reading an element of a mapped array touches only its page of the file, so a store opened
/// from a snapshot costs memory for what is read, not for everything it holds. Writing an element
/// in place changes a private copy of its page (the mapping is private); appending past the
/// mapped elements copies them to the heap once, with room to grow. A value type with
/// copy-on-write, like `Array`; indices are checked like `Array`'s.
public struct MappedArray<Element: BitwiseCopyable & Sendable>: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    // @unchecked: `base` only caches `storage.base`, which the array owns with copy-on-write.
    private var storage: Storage
    private var base: UnsafeMutablePointer<Element>?
    public private(set) var count: Int

    /// An empty array.
    public init() {
        storage = Storage(base: nil, capacity: 0, mapping: nil)
        count = 0
    }

    /// `count` copies of `element`, on the heap.
    public init(repeating element: Element, count: Int) {
        self.init()
        reserveCapacity(count)
        base?.initialize(repeating: element, count: count)
        self.count = count
    }

    /// The elements stored in `bytes`, a part of `mapping`, read in place; nil unless `bytes` is
    /// aligned for `Element` and holds a whole number of them.
    public init?(mapping: MappedFile, bytes: UnsafeRawBufferPointer) {
        let stride = MemoryLayout<Element>.stride
        guard bytes.count % stride == 0 else { return nil }
        self.init()
        guard let start = bytes.baseAddress else { return }
        guard Int(bitPattern: start) % MemoryLayout<Element>.alignment == 0,
            let mapped = mapping.bytes.baseAddress, start >= UnsafeRawPointer(mapped),
            start + bytes.count <= UnsafeRawPointer(mapped) + mapping.bytes.count
        else { return nil }
        let pointer = UnsafeMutableRawPointer(mutating: start).assumingMemoryBound(to: Element.self)
        storage = Storage(base: pointer, capacity: bytes.count / stride, mapping: mapping)
        base = pointer
        count = bytes.count / stride
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    /// How many elements fit before the array must move or grow its storage.
    public var capacity: Int { storage.capacity }
    /// Whether the elements are still those of a mapped file.
    public var isMapped: Bool { storage.mapping != nil }

    public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "MappedArray index out of range")
            return base.unsafelyUnwrapped[index]
        }
        set {
            precondition(index >= 0 && index < count, "MappedArray index out of range")
            makeUnique()
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    /// Calls `body` with the elements, contiguous.
    public func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `minimumCapacity` elements (on the heap, if they must move). Unlike
    /// `Array`'s, does nothing when the room is there, even if the storage is shared: a mapped
    /// array is copied only when it changes.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > storage.capacity { move(capacity: minimumCapacity) }
    }

    /// Adds `element` at the end.
    public mutating func append(_ element: Element) {
        growIfNeeded(by: 1)
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    /// Adds `elements` at the end.
    public mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        growIfNeeded(by: elements.count)
        (base.unsafelyUnwrapped + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// Inserts `element` at `index`, moving the later elements up.
    public mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "MappedArray index out of range")
        growIfNeeded(by: 1)
        let at = base.unsafelyUnwrapped + index
        (at + 1).moveInitialize(from: at, count: count - index)
        at.initialize(to: element)
        count += 1
    }

    /// Removes the element at `index`, moving the later elements down.
    public mutating func remove(at index: Int) {
        precondition(index >= 0 && index < count, "MappedArray index out of range")
        makeUnique()
        let at = base.unsafelyUnwrapped + index
        at.moveInitialize(from: at + 1, count: count - index - 1)
        count -= 1
    }

    /// Removes the last element.
    public mutating func removeLast() {
        precondition(count > 0, "removeLast from an empty MappedArray")
        count -= 1
    }

    private mutating func growIfNeeded(by extra: Int) {
        if count + extra > storage.capacity {
            move(capacity: Swift.max(count + extra, 2 * storage.capacity, 16))
        } else {
            makeUnique()
        }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { move(capacity: storage.capacity) }
    }

    /// Copies the elements into heap storage for `capacity` elements; the old storage gives its
    /// memory back when no other copy of the array holds it.
    private mutating func move(capacity: Int) {
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(capacity, 1))
        if let base { pointer.initialize(from: base, count: count) }
        storage = Storage(base: pointer, capacity: capacity, mapping: nil)
        base = pointer
    }

    /// The memory of a ``MappedArray``: its heap allocation, or the part of a mapping it reads.
    private final class Storage: @unchecked Sendable {
        // @unchecked: written only through a uniquely referenced array (copy-on-write), as
        // `Array`'s buffer is.
        let base: UnsafeMutablePointer<Element>?
        let capacity: Int
        /// The file `base` points into; nil when `base` is the heap's.
        let mapping: MappedFile?

        init(base: UnsafeMutablePointer<Element>?, capacity: Int, mapping: MappedFile?) {
            self.base = base
            self.capacity = capacity
            self.mapping = mapping
        }

        deinit {
            guard let base else { return }
            if let mapping, let mapped = mapping.bytes.baseAddress {
                let start = UnsafeMutableRawPointer(base) - mapped
                mapping.release(start..<start + capacity * MemoryLayout<Element>.stride)
            } else if mapping == nil {
                base.deallocate()
            }
        }
    }
}
