import Foundation
import LogInspection
import Testing
import TestSupport

/// log-inspect and log-replay read TIME alike: the same help, the same meaning, the same refusal.
@Suite struct TimeArgumentToolTests {
    private func run(_ tool: String, _ arguments: [String]) async throws -> ChildProcess.Outcome {
        guard let binary = ChildProcess.builtExecutable(tool) else {
            Issue.record("build \(tool) first (swift build --build-tests)")
            throw CocoaError(.fileNoSuchFile)
        }
        return try await ChildProcess.run(binary, arguments)
    }

    /// Text with every run of white space made one space, as help is wrapped to the terminal.
    private func unwrapped(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("both tools' --help give TIME's forms in the same words, midnight UTC included", arguments: [
        ("log-inspect", ["--help"]), ("log-inspect", ["dump", "--help"]),
        ("log-replay", ["--help"]), ("log-replay", ["state", "--help"]), ("log-replay", ["notes", "--help"]),
        ("log-replay", ["export", "--help"]),
    ])
    func help(tool: String, arguments: [String]) async throws {
        let outcome = try await run(tool, arguments)
        #expect(outcome.status == 0)
        #expect(unwrapped(outcome.outputText).contains(unwrapped(TimeArgument.forms)), "\(tool) \(arguments)")
        #expect(outcome.outputText.contains("TIME"))
    }

    @Test("a TIME in no form is a usage error naming the option and the forms, in both tools", arguments: [
        ("log-inspect", ["dump", InspectFixtures.notesStore, "--since", "yesterday"], "--since"),
        ("log-inspect", ["dump", InspectFixtures.notesStore, "--until", "2023-02-29"], "--until"),
        ("log-replay", ["state", InspectFixtures.notesStore, "--at", "yesterday"], "--at"),
        ("log-replay", ["notes", InspectFixtures.notesStore, "--at", "2024-05-01T12:00:00"], "--at"),
    ])
    func refusal(tool: String, arguments: [String], option: String) async throws {
        let outcome = try await run(tool, arguments)
        #expect(outcome.status == 64)
        #expect(outcome.outputText.isEmpty)
        let errors = unwrapped(outcome.errorText)
        #expect(errors.contains("'\(option) <TIME>'"), "\(errors)")
        #expect(errors.contains(unwrapped(TimeArgument.forms)), "\(errors)")
    }

    @Test("an instant given as milliseconds, as ISO 8601 in another zone, or as its date, selects the same events in both tools")
    func sameMeaning() async throws {
        let timestamps = try InspectFixtures.dumpLines(InspectFixtures.notesStore, filter: DumpFilter(zone: "Notes"))
            .compactMap { line in
                (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["timestamp"] as? Int64
            }
        let middle = try #require(timestamps.sorted().dropFirst(timestamps.count / 2).first)
        // The wall-clock time two hours east of UTC, with that zone.
        let iso = String(Timestamp.iso8601(milliseconds: middle + 7_200_000).dropLast()) + "+02:00"
        #expect(try TimeArgument(iso).milliseconds == middle)

        for (tool, command, option) in [("log-inspect", ["dump", InspectFixtures.notesStore, "--zone", "Notes"], "--until"), ("log-replay", ["notes", InspectFixtures.notesStore], "--at")] {
            let byMilliseconds = try await run(tool, command + [option, String(middle)])
            let byISO8601 = try await run(tool, command + [option, iso])
            #expect(byMilliseconds.status == 0 && byISO8601.status == 0, "\(tool): \(byISO8601.errorText)")
            #expect(byISO8601.outputText == byMilliseconds.outputText, "\(tool)")
            #expect(!byISO8601.outputText.isEmpty)
        }
        let date = String(Timestamp.iso8601(milliseconds: middle).prefix(10))
        let midnight = try TimeArgument(date).milliseconds
        #expect(midnight % 86_400_000 == 0 && midnight <= middle && middle - midnight < 86_400_000)
        let sinceDate = try await run("log-inspect", ["dump", InspectFixtures.notesStore, "--zone", "Notes", "--since", date])
        let sinceMidnight = try await run("log-inspect", ["dump", InspectFixtures.notesStore, "--zone", "Notes", "--since", String(midnight)])
        #expect(sinceDate.status == 0 && sinceDate.outputText == sinceMidnight.outputText)
    }
}
