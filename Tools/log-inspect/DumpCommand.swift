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
              log-inspect dump STORE --zone Notes --header event=delete
              log-inspect dump STORE --field title~=milk --field folder=default-folder --limit 20
              log-inspect dump some-kafka-topic-0/00000000000000000000.log --batches

            JSON Lines, one object per record: zone, offset, timestamp (ms), key, event \
            (save/delete/createZone/…), recordType, changeTag, creationDate/modificationDate (ms), \
            fields (strings, integers, doubles, booleans as JSON; dates {"date":ISO}, bytes \
            {"bytes":base64}, references {"reference":name,"action"}, locations \
            {"latitude","longitude"}, lists as arrays). A value that is not a store record \
            (a foreign segment) has fields null and value (base64), plus valueText when it is UTF-8.

            Search: --header KEY=VALUE keeps records with a header KEY (event, recordType, \
            changeTag, or any other) whose value equals VALUE; --field KEY=VALUE keeps saves whose \
            field KEY equals VALUE; KEY~=VALUE means contains. Both may be repeated (all must \
            pass). A field compares as text: strings as they are, numbers as JSON writes them, \
            true/false, dates as ISO 8601 UTC with ms, references as the record name, bytes as \
            base64, a list when one element does. --limit N stops after N matches, so a search \
            of a large store ends early.

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
    @Option(
        help: ArgumentHelp("Only records with a header KEY equal to (KEY=VALUE) or containing (KEY~=VALUE) VALUE.", valueName: "KEY=VALUE"),
        transform: { try DumpMatch($0) })
    var header: [DumpMatch] = []
    @Option(
        help: ArgumentHelp("Only saves whose field KEY equals (KEY=VALUE) or contains (KEY~=VALUE) VALUE.", valueName: "KEY=VALUE"),
        transform: { try DumpMatch($0) })
    var field: [DumpMatch] = []
    @Option(help: ArgumentHelp("Stop after N matching records (batches with --batches).", valueName: "N")) var limit: Int?
    @Flag(help: "Show batch headers instead of records.") var batches = false
    @Flag(help: "Print JSON Lines.") var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if batches, !header.isEmpty || !field.isEmpty { throw ValidationError("--header and --field select records, not --batches.") }
    }

    func run() async throws {
        try await reportingErrors {
            let filter = DumpFilter(
                zone: zone, from: from, to: to, key: key, recordType: type,
                since: since?.milliseconds, until: until?.milliseconds, headers: header, fields: field, limit: limit)
            try Dump.lines(InspectTarget(path: path), filter: filter, batches: batches, json: json) { print($0) }
        }
    }
}
