import Foundation

/// A record: a type, an ID, typed fields and the system fields the store sets, as CloudKit's `CKRecord`.
///
/// ```swift
/// var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1"))
/// note["title"] = .string("Groceries")
/// note["pinned"] = .bool(true)
/// note.changedKeys()        // ["pinned", "title"]
/// ```
///
/// Equality compares content — type, ID, fields and system fields (dates by millisecond, as
/// stored) — not ``changedKeys()``, so equal records encode to equal bytes.
public struct Record: Sendable {
    /// One field, as kept in key order.
    struct Field: Sendable, Hashable {
        var key: String
        var value: FieldValue
        /// Whether the field was set since the record was created or last returned by the store.
        /// Not part of the field's identity: equal content is equal whatever was edited.
        var isChanged = false

        init(key: String, value: FieldValue, isChanged: Bool = false) {
            self.key = key
            self.value = value
            self.isChanged = isChanged
        }

        static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.key == rhs.key && lhs.value == rhs.value
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(value)
        }
    }

    /// The app-defined type: starts with an ASCII letter, then `[A-Za-z0-9_]`, at most 255 characters.
    public let recordType: String
    /// The record's name and zone.
    public let recordID: RecordID
    /// When the record was first saved; set by the store, nil before the first save.
    public internal(set) var creationDate: Date?
    /// When the record was last saved; set by the store, nil before the first save.
    public internal(set) var modificationDate: Date?
    /// The server's version tag of the record, for optimistic concurrency; nil before the first save.
    public internal(set) var recordChangeTag: String?
    /// For a record of a synced zone in a device's store: the change tag of the remote's version
    /// this record was last in step with (what a ``SyncEngine`` sends as the record's change tag),
    /// as CloudKit apps keep a record's system fields beside their copy. Nil for a record never
    /// synced. Only sync writes set it; other saves keep the stored record's.
    package var syncChangeTag: String?
    /// For a record of a synced zone: who last edited it and when (``SyncAuthor``). A device's
    /// store stamps every app save in a synced zone; a stamp the request sets explicitly
    /// (``setSyncAuthor(_:)``: a sync engine forwarding another device's edit) is kept instead.
    package private(set) var syncAuthor: SyncAuthor?
    /// Whether ``syncAuthor`` was set on this value to be saved, rather than read from a store.
    package private(set) var syncAuthorIsSet = false

    /// The fields, sorted by key (strictly ascending), so lookups are binary searches and encoding
    /// needs no sort.
    private(set) var fields: [Field]
    /// Keys removed since the record was created or last returned by the store, sorted; keys
    /// set since then are flagged on their fields. No set is allocated per record: most records
    /// change a few keys, and a save reads them once.
    private var removedKeys: [String] = []
    /// Whether the fields' `isChanged` flags predate the last ``clearChangedKeys()`` and count
    /// for nothing: clearing them at once would copy the fields array, which the caller's copy
    /// of the record still shares, for every record a save returns; they are cleared on the next
    /// edit instead, if one comes.
    private var flagsForgotten = false

    /// Creates an unsaved record with no fields.
    public init(recordType: String, recordID: RecordID = RecordID()) {
        self.init(recordType: recordType, recordID: recordID, sortedFields: [])
    }

    /// Creates an unsaved record with a new UUID record name in `zoneID`.
    public init(recordType: String, zoneID: ZoneID) {
        self.init(recordType: recordType, recordID: RecordID(zoneID: zoneID))
    }

    /// Creates a record from its parts; as the store returns it, it has no changed keys.
    /// `sortedFields` must be sorted by key.
    init(
        recordType: String, recordID: RecordID, sortedFields: [Field],
        creationDate: Date? = nil, modificationDate: Date? = nil, recordChangeTag: String? = nil,
        syncChangeTag: String? = nil, syncAuthor: SyncAuthor? = nil, changedKeys: Set<String> = []
    ) {
        self.recordType = recordType
        self.recordID = recordID
        self.fields = sortedFields
        for key in changedKeys { markChanged(key) }
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.recordChangeTag = recordChangeTag
        self.syncChangeTag = syncChangeTag
        self.syncAuthor = syncAuthor
    }

    /// Sets who edited this record and when, to be saved as is (a sync write, or a request a sync
    /// engine sends on behalf of the device that made the edit).
    package mutating func setSyncAuthor(_ author: SyncAuthor?) {
        syncAuthor = author
        syncAuthorIsSet = true
    }

    /// Takes the stamp a save stores: the one `request` set explicitly, else `stamp` (an app save
    /// in a synced zone), else the one this record has.
    mutating func takeAuthor(from request: Record, stamp: SyncAuthor?) {
        if request.syncAuthorIsSet {
            syncAuthor = request.syncAuthor
        } else if let stamp {
            syncAuthor = stamp
        }
        syncAuthorIsSet = false
    }

    /// The value of the field `key`, or nil when the record has no such field. Setting a value
    /// (or nil, which removes the field) marks `key` as changed.
    public subscript(key: String) -> FieldValue? {
        get {
            let (index, found) = position(of: key)
            return found ? fields[index].value : nil
        }
        set {
            settleForgottenFlags()
            let (index, found) = position(of: key)
            switch (newValue, found) {
            case (let value?, true):
                fields[index].value = value
                fields[index].isChanged = true
            case (let value?, false):
                // Records are built a few fields at a time: start with room for several rather
                // than growing the array at the first, second and fourth field.
                if fields.capacity == 0 { fields.reserveCapacity(4) }
                fields.insert(Field(key: key, value: value, isChanged: true), at: index)
                forgetRemoval(of: key)
            case (nil, true):
                fields.remove(at: index)
                noteRemoval(of: key)
            case (nil, false):
                noteRemoval(of: key)
            }
        }
    }

    /// The keys of the fields that have a value, sorted.
    public func allKeys() -> [String] {
        fields.map(\.key)
    }

    /// The keys set (or removed) locally since the record was created or last returned by the
    /// store, sorted. A save with the `.changedKeys` policy writes only these.
    public func changedKeys() -> [String] {
        let set = flagsForgotten ? [] : fields.filter(\.isChanged).map(\.key)
        guard !removedKeys.isEmpty else { return set }
        return (set + removedKeys).sorted()
    }

    /// Forgets the changed keys, as when the store returns the record after a save.
    mutating func clearChangedKeys() {
        removedKeys.removeAll()
        flagsForgotten = true
    }

    /// Clears the flags that ``clearChangedKeys()`` forgot, before one is set again.
    private mutating func settleForgottenFlags() {
        guard flagsForgotten else { return }
        flagsForgotten = false
        for index in fields.indices where fields[index].isChanged { fields[index].isChanged = false }
    }

    /// Marks `key` as changed: flagged on its field when present, else a removal.
    private mutating func markChanged(_ key: String) {
        settleForgottenFlags()
        let (index, found) = position(of: key)
        if found { fields[index].isChanged = true } else { noteRemoval(of: key) }
    }

    private mutating func noteRemoval(of key: String) {
        let (index, found) = Self.position(of: key, count: removedKeys.count) { removedKeys[$0] }
        if !found { removedKeys.insert(key, at: index) }
    }

    private mutating func forgetRemoval(of key: String) {
        guard !removedKeys.isEmpty else { return }
        let (index, found) = Self.position(of: key, count: removedKeys.count) { removedKeys[$0] }
        if found { removedKeys.remove(at: index) }
    }

    /// The index of `key` in `fields` if present, else where it would be inserted.
    private func position(of key: String) -> (index: Int, found: Bool) {
        Self.position(of: key, count: fields.count) { fields[$0].key }
    }

    /// Binary search for `key` among `count` ascending keys.
    private static func position(of key: String, count: Int, keyAt: (Int) -> String) -> (index: Int, found: Bool) {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let candidate = keyAt(middle)
            if candidate == key { return (middle, true) }
            if candidate < key { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }
}

extension Record: Hashable {
    public static func == (lhs: Record, rhs: Record) -> Bool {
        lhs.recordID == rhs.recordID && lhs.recordType == rhs.recordType && lhs.fields == rhs.fields
            && MillisecondDate.same(lhs.creationDate, rhs.creationDate)
            && MillisecondDate.same(lhs.modificationDate, rhs.modificationDate)
            && sameBytes(lhs.recordChangeTag, rhs.recordChangeTag) && sameBytes(lhs.syncChangeTag, rhs.syncChangeTag)
            && lhs.syncAuthor == rhs.syncAuthor
    }

    private static func sameBytes(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.hasSameUTF8(as: rhs)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordID)
        hasher.combine(recordType)
        hasher.combine(fields)
    }
}
