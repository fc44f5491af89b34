import Foundation

/// What log-inspect reads: a store directory, or one segment file (a store's or any Kafka v2 one).
///
/// Listing reads directories and zone names only; it needs no lock, writes nothing, and works on
/// a damaged store (it does not open the log).
public struct InspectTarget: Sendable {
    /// The path as given.
    public let path: String
    /// Whether the path is a store directory (else a single segment file).
    public let isStore: Bool
    /// The zones, sorted by name; a segment file is one zone.
    public let zones: [ZoneFiles]

    /// Resolves `path`.
    ///
    /// - Throws: ``InspectError/notFound(_:)`` or ``InspectError/notAStoreOrSegment(_:)``.
    public init(path: String) throws(InspectError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .notFound(path) }
        if isDirectory.boolValue {
            guard FileManager.default.fileExists(atPath: path + "/recordlog.meta") else { throw .notAStoreOrSegment(path) }
            isStore = true
            zones = Self.listZones(store: path)
        } else {
            guard path.hasSuffix(".log") else { throw .notAStoreOrSegment(path) }
            isStore = false
            let url = URL(fileURLWithPath: path)
            let zoneName = try? String(contentsOf: url.deletingLastPathComponent().appendingPathComponent("zone.name"), encoding: .utf8)
            let file = url.lastPathComponent
            zones = [ZoneFiles(name: zoneName ?? file, segments: [SegmentFile(path: path, file: file)])]
        }
    }

    /// The zones to read: all, or the one named `zone`.
    ///
    /// - Throws: ``InspectError/zoneNotFound(_:available:)``.
    public func zones(named zone: String?) throws(InspectError) -> [ZoneFiles] {
        guard let zone else { return zones }
        let found = zones.filter { $0.name == zone }
        guard !found.isEmpty else { throw .zoneNotFound(zone, available: zones.map(\.name)) }
        return found
    }

    /// The size of every segment file of every zone, added up: what a pass over them reads.
    package var totalSegmentBytes: Int64 {
        zones.flatMap(\.segments).reduce(Int64(0)) { total, segment in
            total + (((try? FileManager.default.attributesOfItem(atPath: segment.path))?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    private static func listZones(store: String) -> [ZoneFiles] {
        let zonesPath = store + "/zones"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: zonesPath) else { return [] }
        var zones: [ZoneFiles] = []
        for directory in names where !directory.hasPrefix(".") {
            let path = zonesPath + "/" + directory
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
            let name = (try? String(contentsOfFile: path + "/zone.name", encoding: .utf8)) ?? directory
            let segments = files.filter { SegmentFile.baseOffset(ofFileName: $0) != nil }
                .map { SegmentFile(path: path + "/" + $0, file: "zones/\(directory)/\($0)") }
                .sorted { ($0.namedBaseOffset ?? 0) < ($1.namedBaseOffset ?? 0) }
            zones.append(ZoneFiles(name: name, segments: segments, directory: path))
        }
        return zones.sorted { $0.name < $1.name }
    }
}
