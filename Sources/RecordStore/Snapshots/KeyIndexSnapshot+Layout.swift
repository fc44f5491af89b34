import StorageKit

/// The key index checkpoint's sections and metas by name (FORMAT.md §12.2). The raw values are
/// the sections' numbers and the metas' words are in the file's order: renaming changes no byte.
extension KeyIndexSnapshot {
    /// The sections before the zones': the file's header.
    enum Section: Int, SnapshotSection {
        /// Two uint64: ``Header``.
        case header
    }

    /// The sections after the zones' (version 6 on).
    enum TrailingSection: Int, SnapshotSection {
        /// Per zone, in the zones' order: its latest client change token (``ClientChangeTokenMark``).
        case clientChangeTokens
    }

    /// The section after ``TrailingSection`` (version 7 on).
    enum DeletedNamesSection: Int, SnapshotSection {
        /// Per zone, in the zones' order: its ``DeletedNames``.
        case deletedNames
    }

    /// Section 0: the format's version and how many zones follow.
    struct Header: SnapshotMeta {
        /// The version this code writes: version 6 and a ``DeletedNamesSection``. It versions
        /// the name table's hash (``SlotTable/hash(_:seed:)``) too: a change to the hash is a new
        /// version.
        static let currentVersion: UInt64 = 7
        /// Version 5 and a ``TrailingSection``, which this code reads: the files of stores
        /// written before the deleted names were kept (their zones' are then not complete).
        static let versionWithClientTokens: UInt64 = 6
        /// The version without client change tokens, which this code reads: the files of stores
        /// written before client change tokens.
        static let versionWithoutClientTokens: UInt64 = 5
        /// The versions this code reads.
        static let readVersions: ClosedRange<UInt64> = versionWithoutClientTokens...currentVersion
        static let wordCount = 2

        var version = currentVersion
        /// How many zones' parts follow, each ``ZoneSection/count`` sections; equals the
        /// footer's zone count.
        var zoneCount: Int

        var words: [UInt64] { [version, UInt64(zoneCount)] }

        /// How many sections follow the zones': ``TrailingSection``'s from version 6 on,
        /// ``DeletedNamesSection``'s from version 7 on.
        var trailingSectionCount: Int {
            (version >= Self.versionWithClientTokens ? TrailingSection.count : 0) + (version >= Self.currentVersion ? DeletedNamesSection.count : 0)
        }

        /// Refuses any version but ``readVersions``.
        init?(words: [UInt64]) {
            guard words.count == Self.wordCount, Self.readVersions.contains(words[0]),
                let zoneCount = Int(exactly: words[1])
            else { return nil }
            self.version = words[0]
            self.zoneCount = zoneCount
        }

        init(version: UInt64 = currentVersion, zoneCount: Int) {
            self.version = version
            self.zoneCount = zoneCount
        }
    }

    /// A zone's sections, numbered from its part's first one (file section
    /// `Section.count + ZoneSection.count × the zone's position`).
    enum ZoneSection: Int, SnapshotSection {
        /// ``ZoneMeta``.
        case meta
        /// The zone's name, UTF-8.
        case zoneName
        /// The record types' names: their lengths, then their UTF-8 (type id order).
        case typeNameLengths, typeNames
        /// Per type id, how many live records have it.
        case liveByType
        /// The cascade targets' names: their lengths, then their UTF-8 (target id order).
        case targetNameLengths, targetNames
        /// Per target id, the first slot of its list and how many links reference it.
        case targetHeads, targetCounts
        /// The record entries, by slot, then room.
        case entries
        /// The live records' names, UTF-8, back to back.
        case names
        /// Per slot, where its name lies in ``names``, then room.
        case nameRefs
        /// The names' ``SlotTable`` buckets.
        case nameTable
        /// Per slot, the next and the previous slot in its first target's list, then room.
        case targetNext, targetPrevious
        /// The free slots.
        case freeSlots
        /// The further targets of records with more than one.
        case moreTargets
    }

    /// A zone's section 0: the sizes of its index, and the seed of its name table.
    struct ZoneMeta: SnapshotMeta {
        static let wordCount = 4

        /// N: how many live records the zone holds.
        var liveCount: Int
        /// The seed of the name table's hashes.
        var nameSeed: UInt64
        /// The length of the live records' names, all together.
        var liveNameBytes: Int
        /// S: how many slots (live and free) the index keeps.
        var slotCount: Int

        /// Clamped: counts below zero only come of a damaged snapshot's bookkeeping (a table or
        /// name arena whose counts did not add up, then deletes replayed over it); written as 0,
        /// they no longer add up, and the next open replays the zone.
        var words: [UInt64] { [UInt64(clamping: liveCount), nameSeed, UInt64(clamping: liveNameBytes), UInt64(clamping: slotCount)] }

        /// Refuses more live records than slots, and more slots than an int32 numbers.
        init?(words: [UInt64]) {
            guard words.count == Self.wordCount, words[0] <= words[3], words[3] <= UInt64(Int32.max) else { return nil }
            liveCount = Int(words[0])
            nameSeed = words[1]
            liveNameBytes = Int(clamping: words[2])
            slotCount = Int(words[3])
        }

        init(liveCount: Int, nameSeed: UInt64, liveNameBytes: Int, slotCount: Int) {
            self.liveCount = liveCount
            self.nameSeed = nameSeed
            self.liveNameBytes = liveNameBytes
            self.slotCount = slotCount
        }
    }
}
