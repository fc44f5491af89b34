import Foundation
import Logging
@testable import RecordStore
import Synchronization

/// A model with a property of every supported type.
struct EveryKindModel: RecordCodable, Equatable {
    enum Status: String, Codable { case draft, published }

    enum Fields: String, CaseIterable {
        case id, text, int, int8, int32, uint16, uint64, double, float, flag, when, data, bytes
        case link, linkedID, place, tags, matrix, dates, status, uuid, raw
        case optionalText, optionalInt, optionalDate, optionalPlace, optionalTags
        case createdAt, modifiedAt
    }

    static let recordType = "EveryKind"

    var id: String
    var text: String
    var int: Int
    var int8: Int8
    var int32: Int32
    var uint16: UInt16
    var uint64: UInt64
    var double: Double
    var float: Float
    var flag: Bool
    var when: Date
    var data: Data
    var bytes: [UInt8]
    var link: Reference
    var linkedID: RecordID
    var place: Location
    var tags: [String]
    var matrix: [[Int]]
    var dates: [Date]
    var status: Status
    var uuid: UUID
    var raw: FieldValue
    var optionalText: String?
    var optionalInt: Int?
    var optionalDate: Date?
    var optionalPlace: Location?
    var optionalTags: [String]?
    var createdAt: Date?
    var modifiedAt: Date?

    static func sample(id: String = "every-1", zone: ZoneID, optionals: Bool) -> EveryKindModel {
        EveryKindModel(
            id: id, text: "Crème brûlée ✓", int: -42, int8: -8, int32: .max, uint16: 65535, uint64: UInt64(Int64.max),
            double: -0.5, float: 1.5, flag: true, when: Date(timeIntervalSince1970: 1_700_000_000.123),
            data: Data([0, 1, 2, 255]), bytes: [9, 8, 7],
            link: Reference(recordID: RecordID(recordName: "target", zoneID: zone), action: .none),
            linkedID: RecordID(recordName: "target", zoneID: zone),
            place: Location(latitude: 48.8566, longitude: 2.3522), tags: ["home", "", "weekly"],
            matrix: [[1, 2], [], [3]], dates: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5)],
            status: .published, uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(),
            raw: .list([.bool(false)]),
            optionalText: optionals ? "here" : nil, optionalInt: optionals ? 7 : nil,
            optionalDate: optionals ? Date(timeIntervalSince1970: 86_400.5) : nil,
            optionalPlace: optionals ? Location(latitude: -33.9, longitude: 151.2) : nil,
            optionalTags: optionals ? [] : nil,
            createdAt: nil, modifiedAt: nil)
    }
}

/// A note as the Notes app stores it: its folder is a `.deleteSelf` reference given by record name.
struct TypedNote: RecordCodable, Equatable, Sendable {
    enum Fields: String, CaseIterable { case id, folder, title, tags, rank, createdAt, modifiedAt }
    static let recordType = "Note"
    static let referenceFields: [Fields: Reference.Action] = [.folder: .deleteSelf]

    var id: String
    var folder: String
    var title: String
    var tags: [String]
    var rank: Int
    var createdAt: Date?
    var modifiedAt: Date?

    init(id: String, folder: String, title: String, tags: [String] = [], rank: Int = 0) {
        self.id = id
        self.folder = folder
        self.title = title
        self.tags = tags
        self.rank = rank
    }
}

/// A folder, for notes to refer to.
struct TypedFolder: RecordCodable, Equatable, Sendable {
    enum Fields: String, CaseIterable { case id, name }
    static let recordType = "Folder"
    var id: String
    var name: String
}

/// Collects the messages logged through it.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var messages: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// A logger that writes here (never bootstrapping swift-log).
    var logger: Logger {
        Logger(label: "TypedTests") { _ in CapturingLogHandler(capture: self) }
    }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.append("\(event.level) \(event.message)")
    }
}
