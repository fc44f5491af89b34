
/// A growable array of plain values whose elements may start out in a ``MappedFile`` — a view's
/// snapshot — and move to the heap only when the array outgrows them.
///
/// Reading an element of a mapped array touches only its page of the file, so a store opened
/// from a snapshot costs memory for what is read, not for everything it holds. Writing an element
/// in place changes a private copy of its page (the mapping is private); appending past the
/// mapped elements copies them to the heap once, with room to grow. A value type with
/// copy-on-write, like `Array`; indices are checked like `Array`'s.
@usableFromInline package struct MappedArray<Element: BitwiseCopyable & Sendable>: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    // @unchecked: `base` only caches `storage.base`, which the array owns with copy-on-write.
    /// Nil until the array first holds an element: an empty array allocates nothing.
    @usableFromInline var storage: Storage?
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    @usableFromInline var storedCount: Int
    /// How many elements the array holds.
    @inlinable package var count: Int { storedCount }

    /// An empty array.
    @inlinable package init() {
        storage = nil
        storedCount = 0
    }

    /// `count` copies of `element`, on the heap.
    ///
    /// A large array of zeros is not written: its mapping of its own (``HugePageAllocation``)
    /// holds zeros already, and its pages are faulted in as they are first touched. A hash table
    /// reserved for a million names was otherwise zeroed twice, by the kernel and by `memset`.
    @inlinable package init(repeating element: Element, count: Int) {
        self.init()
        reserveCapacity(count)
        let zeros = withUnsafeBytes(of: element) { bytes in bytes.allSatisfy { $0 == 0 } }
        if !zeros || (storage?.ownMapping ?? 0) == 0 { base?.initialize(repeating: element, count: count) }
        storedCount = count
    }

    /// A copy of `elements`, on the heap.
    @inlinable package init(copying elements: UnsafeBufferPointer<Element>) {
        self.init()
        append(contentsOf: elements)
    }

    /// An array on the heap with room for `capacity` elements, which `initializer` writes in
    /// place, as `Array(unsafeUninitializedCapacity:initializingWith:)`: it sets `count` to how
    /// many it initialized (at most `capacity`), the first ones. The elements are plain values:
    /// on a throw, the memory is given back and nothing needs deinitializing.
    @inlinable package init(
        unsafeUninitializedCapacity capacity: Int,
        initializingWith initializer: (_ buffer: UnsafeMutableBufferPointer<Element>, _ count: inout Int) throws -> Void
    ) rethrows {
        self.init()
        reserveCapacity(capacity)
        var initialized = 0
        try initializer(UnsafeMutableBufferPointer(start: base, count: self.capacity), &initialized)
        precondition(initialized >= 0 && initialized <= self.capacity, "MappedArray initialized more elements than it has room for")
        storedCount = initialized
    }

    /// The elements stored in `bytes`, a part of `mapping`, read in place; nil unless `bytes` is
    /// aligned for `Element` and holds a whole number of them.
    @inlinable package init?(mapping: MappedFile, bytes: UnsafeRawBufferPointer) {
        self.init(mapping: mapping, bytes: bytes, count: bytes.count / Swift.max(1, MemoryLayout<Element>.stride))
    }

    /// The first `count` elements stored in `bytes`, a part of `mapping`, read in place; the rest
    /// of `bytes` is room to append into (the mapping is private: appending changes a private copy
    /// of a page, never the file), so that the first appends do not move the elements to the
    /// heap. Nil unless `bytes` is aligned for `Element` and holds a whole number of them, at
    /// least `count`.
    @inlinable package init?(mapping: MappedFile, bytes: UnsafeRawBufferPointer, count: Int) {
        let stride = MemoryLayout<Element>.stride
        guard bytes.count % stride == 0, count >= 0, count <= bytes.count / stride else { return nil }
        self.init()
        guard let start = bytes.baseAddress else { return }
        guard Int(bitPattern: start) % MemoryLayout<Element>.alignment == 0,
            let mapped = mapping.bytes.baseAddress, start >= UnsafeRawPointer(mapped),
            start + bytes.count <= UnsafeRawPointer(mapped) + mapping.bytes.count
        else { return nil }
        let pointer = UnsafeMutableRawPointer(mutating: start).assumingMemoryBound(to: Element.self)
        storage = Storage(base: pointer, capacity: bytes.count / stride, mapping: mapping)
        base = pointer
        storedCount = count
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }
    /// How many elements fit before the array must move or grow its storage.
    @inlinable package var capacity: Int { storage?.capacity ?? 0 }
    /// Whether the elements are still those of a mapped file.
    @inlinable package var isMapped: Bool { storage?.mapping != nil }

    @inlinable package subscript(index: Int) -> Element {
        get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "MappedArray index out of range")
            return base.unsafelyUnwrapped[index]
        }
        set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "MappedArray index out of range")
            makeUnique()
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    /// Calls `body` with the elements, contiguous.
    @inlinable package func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `minimumCapacity` elements (on the heap, if they must move). Unlike
    /// `Array`'s, does nothing when the room is there, even if the storage is shared: a mapped
    /// array is copied only when it changes.
    @inlinable package mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { move(capacity: minimumCapacity) }
    }

    /// Adds `element` at the end.
    @inlinable package mutating func append(_ element: Element) {
        growIfNeeded(by: 1)
        (base.unsafelyUnwrapped + count).initialize(to: element)
        storedCount += 1
    }

    /// Adds `elements` at the end.
    @inlinable package mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        growIfNeeded(by: elements.count)
        (base.unsafelyUnwrapped + count).initialize(from: source, count: elements.count)
        storedCount += elements.count
    }

    /// Inserts `element` at `index`, moving the later elements up.
    @inlinable package mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "MappedArray index out of range")
        growIfNeeded(by: 1)
        let at = base.unsafelyUnwrapped + index
        (at + 1).moveInitialize(from: at, count: count - index)
        at.initialize(to: element)
        storedCount += 1
    }

    /// Removes the element at `index`, moving the later elements down.
    @inlinable package mutating func remove(at index: Int) {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "MappedArray index out of range")
        makeUnique()
        let at = base.unsafelyUnwrapped + index
        at.moveInitialize(from: at + 1, count: count - index - 1)
        storedCount -= 1
    }

    /// Removes the last element.
    @inlinable package mutating func removeLast() {
        precondition(count > 0, "removeLast from an empty MappedArray")
        storedCount -= 1
    }

    @inlinable mutating func growIfNeeded(by extra: Int) {
        if count + extra > capacity {
            move(capacity: Swift.max(count + extra, 2 * capacity, 16))
        } else {
            makeUnique()
        }
    }

    @inlinable mutating func makeUnique() {
        if storage != nil, !isKnownUniquelyReferenced(&storage) { move(capacity: capacity) }
    }

    /// Copies the elements into heap storage for `capacity` elements; the old storage gives its
    /// memory back when no other copy of the array holds it.
    ///
    /// Large arrays get a mapping of their own, backed by huge pages (``HugePageAllocation``).
    /// An array that holds its mapping alone grows by moving the mapping's pages into a larger
    /// one (``HugePageAllocation/grow(_:bytes:to:)``), not by copying them: a copy wrote every
    /// element again into fresh memory, faulting in and zeroing each of its pages first.
    @inlinable mutating func move(capacity: Int) {
        let stride = MemoryLayout<Element>.stride
        if isKnownUniquelyReferenced(&storage), let old = storage, let oldBase = old.base, old.ownMapping > 0,
            capacity > old.capacity, capacity <= Int.max / Swift.max(stride, 1),
            let grown = HugePageAllocation.grow(UnsafeMutableRawPointer(oldBase), bytes: old.ownMapping, to: capacity * stride)
        {
            // Its pages are the new mapping's now: nothing of the old one is left to give back.
            old.pagesMoved = true
            let pointer = grown.pointer.bindMemory(to: Element.self, capacity: capacity)
            storage = Storage(base: pointer, capacity: capacity, mapping: nil, ownMapping: grown.bytes)
            base = pointer
            return
        }
        let pointer: UnsafeMutablePointer<Element>
        var ownMapping = 0
        if capacity >= HugePageAllocation.minimumBytes / Swift.max(stride, 1), capacity <= Int.max / Swift.max(stride, 1),
            MemoryLayout<Element>.alignment <= HugePageAllocation.hugePageBytes,
            let memory = HugePageAllocation.allocate(bytes: capacity * stride)
        {
            pointer = memory.pointer.bindMemory(to: Element.self, capacity: capacity)
            ownMapping = memory.bytes
        } else {
            pointer = UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(capacity, 1))
        }
        if let base { pointer.initialize(from: base, count: count) }
        storage = Storage(base: pointer, capacity: capacity, mapping: nil, ownMapping: ownMapping)
        base = pointer
    }

    /// The memory of a ``MappedArray``: its heap allocation, or the part of a mapping it reads.
    @usableFromInline final class Storage: @unchecked Sendable {
        // @unchecked: written only through a uniquely referenced array (copy-on-write), as
        // `Array`'s buffer is.
        @usableFromInline package let base: UnsafeMutablePointer<Element>?
        @usableFromInline package let capacity: Int
        /// The file `base` points into; nil when `base` is the heap's.
        @usableFromInline package let mapping: MappedFile?
        /// The bytes of `base`'s own mapping (``HugePageAllocation``); 0 when `malloc` gave it.
        @usableFromInline package let ownMapping: Int
        /// Whether the pages of its own mapping have moved into a grown array's mapping
        /// (``HugePageAllocation/grow(_:bytes:to:)``): there is nothing left to give back.
        @usableFromInline package var pagesMoved = false

        @usableFromInline package init(base: UnsafeMutablePointer<Element>?, capacity: Int, mapping: MappedFile?, ownMapping: Int = 0) {
            self.base = base
            self.capacity = capacity
            self.mapping = mapping
            self.ownMapping = ownMapping
        }

        deinit {
            guard let base, !pagesMoved else { return }
            if let mapping, let mapped = mapping.bytes.baseAddress {
                let start = UnsafeMutableRawPointer(base) - mapped
                mapping.release(start..<start + capacity * MemoryLayout<Element>.stride)
            } else if ownMapping > 0 {
                HugePageAllocation.deallocate(UnsafeMutableRawPointer(base), bytes: ownMapping)
            } else if mapping == nil {
                base.deallocate()
            }
        }
    }
}
