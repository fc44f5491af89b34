/// What `verify` found: per segment what checked out, and every problem.
public struct VerifyReport: Sendable {
    /// The overall verdict.
    public enum Status: String, Sendable {
        /// No problem (warnings aside).
        case clean
        /// Only a torn tail: the next writer's open repairs it, losing nothing acknowledged.
        case tornTail
        /// Mid-log corruption, offset gaps, wrong indexes or undecodable data.
        case corrupt
    }

    /// One segment's valid part.
    public struct Segment: Sendable {
        /// The zone.
        public var zone: String
        /// The segment file, as ``SegmentFile/file``.
        public var file: String
        /// Valid batches before the first problem.
        public var batches: Int
        /// Records in them.
        public var records: Int
        /// The end of the last valid batch.
        public var validBytes: Int64
        /// The file's size.
        public var bytes: Int64
    }

    /// The segments, zone by zone, oldest first.
    public var segments: [Segment] = []
    /// The problems, in file order.
    public var problems: [VerifyProblem] = []

    /// Clean, torn tail only, or corrupt.
    public var status: Status {
        let errors = problems.filter(\.isError)
        if errors.isEmpty { return .clean }
        return errors.allSatisfy { $0.kind == .tornTail } ? .tornTail : .corrupt
    }

    /// Whether the log is clean.
    public var isClean: Bool { status == .clean }

    /// The tool's exit status: 0 clean, 1 torn tail only, 2 corrupt.
    public var exitCode: Int32 {
        switch status {
        case .clean: 0
        case .tornTail: 1
        case .corrupt: 2
        }
    }

    /// `{"clean","status","segments":[{"zone","file","batches","records","validBytes","bytes"}],"problems":[…]}`.
    public func json() -> JSONValue {
        .object([
            ("clean", .bool(isClean)), ("status", .string(status.rawValue)),
            ("segments", .array(segments.map {
                .object([
                    ("zone", .string($0.zone)), ("file", .string($0.file)), ("batches", .int($0.batches)),
                    ("records", .int($0.records)), ("validBytes", .int($0.validBytes)), ("bytes", .int($0.bytes)),
                ])
            })),
            ("problems", .array(problems.map { $0.json() })),
        ])
    }

    /// A line per segment, a line per problem, then the verdict.
    public func text() -> String {
        var lines = segments.map { "\($0.file): \($0.batches) batches, \($0.records) records, \($0.validBytes) of \($0.bytes) bytes valid" }
        lines += problems.map { $0.text() }
        switch status {
        case .clean: lines.append("clean")
        case .tornTail: lines.append("torn tail: an unfinished append at the end; the next writer's open cuts it off")
        case .corrupt: lines.append("CORRUPT: see the errors above")
        }
        return lines.joined(separator: "\n")
    }
}
