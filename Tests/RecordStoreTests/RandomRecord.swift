import Foundation
import RecordStore
import TestSupport

/// Valid records with random fields of every kind, for property tests.
enum RandomRecord {
    static func make(index: Int, zoneID: ZoneID, using generator: inout SeededGenerator) -> Record {
        var record = Record(recordType: "T\(index % 5)", recordID: RecordID(recordName: "r\(index)", zoneID: zoneID))
        for fieldIndex in 0..<Int.random(in: 0...8, using: &generator) {
            let kind = FieldValue.Kind.allCases.randomElement(using: &generator) ?? .string
            record["f\(fieldIndex)_\(Int.random(in: 0...99, using: &generator))"] =
                value(of: kind, depth: 0, zoneID: zoneID, using: &generator)
        }
        return record
    }

    static func value(
        of kind: FieldValue.Kind, depth: Int, zoneID: ZoneID, using generator: inout SeededGenerator
    ) -> FieldValue {
        switch kind {
        case .string:
            let characters = ["a", "Z", " ", "é", "✓", "😀", "\n", "0"]
            return .string((0..<Int.random(in: 0...12, using: &generator)).map { _ in
                characters.randomElement(using: &generator) ?? "a"
            }.joined())
        case .int64:
            return .int64(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...63, using: &generator))
        case .double:
            return .double(Double(bitPattern: generator.next()))
        case .bool:
            return .bool(Bool.random(using: &generator))
        case .date:
            return .date(Date(timeIntervalSince1970: Double(Int64.random(in: -1_000_000_000_000...5_000_000_000_000, using: &generator)) / 1000))
        case .bytes:
            return .bytes((0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case .reference:
            return .reference(Reference(
                recordID: RecordID(recordName: "target\(Int.random(in: 0...9, using: &generator))", zoneID: zoneID),
                action: Bool.random(using: &generator) ? .none : .deleteSelf))
        case .location:
            return .location(Location(
                latitude: Double.random(in: -90...90, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator)))
        case .list:
            let depthLeft = depth + 1 < RecordLimits.maximumListDepth
            let elementKind = FieldValue.Kind.allCases.filter { $0 != .list || depthLeft }
                .randomElement(using: &generator) ?? .int64
            return .list((0..<Int.random(in: 0...4, using: &generator)).map { _ in
                value(of: elementKind, depth: depth + 1, zoneID: zoneID, using: &generator)
            })
        }
    }
}
