import ArgumentParser
import LogInspection

struct DumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "A line per record (or per batch with --batches), filtered.",
        discussion: """
            Examples:
              log-inspect dump STORE --zone Notes
              log-inspect dump STORE --zone Notes --from 5 --to 9     (offsets 5, 6, 7, 8)
              log-inspect dump STORE --type Note --since 2024-05-01 --until 1714600000000
              log-inspect dump STORE --key my-record --json
              log-inspect dump some-kafka-topic-0/00000000000000000000.log --batches

            JSON Lines, one object per record: zone, offset, timestamp (ms), key, event \
            (save/delete/createZone/…), recordType, changeTag, creationDate/modificationDate (ms), \
            fields (strings, integers, doubles, booleans as JSON; dates {"date":ISO}, bytes \
            {"bytes":base64}, references {"reference":name,"action"}, locations \
            {"latitude","longitude"}, lists as arrays). A value that is not a store record \
            (a foreign segment) has fields null and value (base64), plus valueText when it is UTF-8.

            With --batches, one object per batch: zone, file, position, size, baseOffset, \
            lastOffset, count, codec, crc, firstTimestamp, maxTimestamp, valid, problem. Damaged \
            bytes are shown as invalid batches and the dump carries on after them. --batches \
            honours --zone, --from and --to.
            """)

    @Argument(help: "A store directory or a segment file.") var path: String
    @Option(help: "Only this zone.") var zone: String?
    @Option(help: "The first offset (inclusive).") var from: Int64?
    @Option(help: "Stop before this offset (exclusive).") var to: Int64?
    @Option(help: "Only records with this key (record name).") var key: String?
    @Option(help: "Only events of this record type.") var type: String?
    @Option(help: ArgumentHelp("Only records stamped at or after TIME: \(TimeArgument.forms).", valueName: "TIME"), transform: { try TimeArgument($0) })
    var since: TimeArgument?
    @Option(help: ArgumentHelp("Only records stamped at or before TIME: \(TimeArgument.forms).", valueName: "TIME"), transform: { try TimeArgument($0) })
    var until: TimeArgument?
    @Flag(help: "Show batch headers instead of records.") var batches = false
    @Flag(help: "Print JSON Lines.") var json = false

    func run() async throws {
        try await reportingErrors {
            let filter = DumpFilter(
                zone: zone, from: from, to: to, key: key, recordType: type,
                since: since?.milliseconds, until: until?.milliseconds)
            try Dump.lines(InspectTarget(path: path), filter: filter, batches: batches, json: json) { print($0) }
        }
    }
}
