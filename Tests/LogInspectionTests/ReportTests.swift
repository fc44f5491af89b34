import Foundation
import LogInspection
import Testing
import TestSupport

/// `log-inspect report`: one self-contained page whose verdict, charts and counts match what
/// verify and summary say about the same files.
@Suite struct ReportTests {
    static let fixtures: [(name: String, path: String, status: String)] = [
        ("notes-store", InspectFixtures.notesStore, "clean"), ("notes-store-torn", InspectFixtures.tornStore, "tornTail"),
        ("notes-store-flipped", InspectFixtures.flippedStore, "corrupt"), ("kafka-python", InspectFixtures.kafkaSegment, "clean"),
    ]

    static func page(_ path: String) throws -> (report: StoreReport, html: String) {
        let report = try StoreReport(InspectTarget(path: path))
        return (report, ReportPage(report).html())
    }

    @Test("the report counts what summary counts, zone by zone", arguments: fixtures)
    func countsMatchSummary(fixture: (name: String, path: String, status: String)) throws {
        let target = try InspectTarget(path: fixture.path)
        let report = try StoreReport(target)
        #expect(report.zones.map { $0.summary.json() } == (try Summary(target)).zones.map { $0.json() })
        for zone in report.zones {
            #expect(zone.commits.count == zone.summary.batches)
            #expect(zone.commits.reduce(0) { $0 + $1.records } == zone.summary.records)
            #expect(zone.batchSizes.reduce(0, +) == zone.summary.batches)
        }
    }

    @Test("the verdict at the top is verify's, with file, position and offset", arguments: fixtures)
    func verdict(fixture: (name: String, path: String, status: String)) throws {
        let (report, html) = try Self.page(fixture.path)
        #expect(report.verdict.status.rawValue == fixture.status)
        #expect(html.contains("<section id=\"verdict\" class=\"verdict \(fixture.status)\""))
        let verdict = try #require(html.range(of: "id=\"verdict\""))
        let firstZone = html.range(of: "<section class=\"zone\"")?.lowerBound ?? html.endIndex
        #expect(verdict.lowerBound < firstZone, "the verdict comes before the zones")
    }

    @Test("a torn tail and a flipped bit are named with their file, position and offset")
    func damageIsLocated() throws {
        let torn = try Self.page(InspectFixtures.tornStore).html
        #expect(torn.contains(
            "<li class=\"problem error\">error tornTail in <code>zones/Notes/00000000000000000000.log</code> at position 3100, offset 15:"))
        let flipped = try Self.page(InspectFixtures.flippedStore).html
        #expect(flipped.contains(
            "<li class=\"problem error\">error corruption in <code>zones/Notes/00000000000000000000.log</code> at position 1593, offset 7:"))
        #expect(flipped.contains("CORRUPT"))
        #expect(try !Self.page(InspectFixtures.notesStore).html.contains("class=\"problem"))
    }

    @Test("each zone has its charts, each with axes and a caption")
    func chartsPresent() throws {
        let html = try Self.page(InspectFixtures.notesStore).html
        for chart in ["timeline", "batch-sizes", "bytes", "segments", "by-event", "by-type"] {
            #expect(html.contains("<figure class=\"chart\" data-chart=\"\(chart)\" data-zone=\"Notes\">"), "\(chart)")
        }
        // The empty zone has no records by event or type to chart, but still its timeline and segments.
        #expect(html.contains("data-chart=\"timeline\" data-zone=\"_defaultZone\""))
        #expect(!html.contains("data-chart=\"by-type\" data-zone=\"_defaultZone\""))
        let figures = html.components(separatedBy: "<figure class=\"chart\"").dropFirst()
        #expect(figures.count == 6 + 5 + 4)  // Notes; _database (no types); _defaultZone (no events or types)
        for figure in figures {
            #expect(figure.contains("<svg") && figure.contains("class=\"axis\"") && figure.contains("class=\"title\""))
            #expect(figure.contains("<figcaption>"))
        }
        #expect(html.contains("data-zone=\"Notes\" data-records=\"16\" data-batches=\"14\""))
        #expect(html.contains("16 records in 14 commits"))
    }

    @Test("the tables list the most rewritten keys and the largest records, largest first")
    func tables() throws {
        let report = try StoreReport(InspectTarget(path: InspectFixtures.notesStore))
        let notes = try #require(report.zones.first { $0.name == "Notes" })
        #expect(!notes.mostRewritten.isEmpty)
        #expect(notes.mostRewritten.map(\.events) == notes.mostRewritten.map(\.events).sorted(by: >))
        #expect(notes.mostRewritten.allSatisfy { $0.events > 1 })
        #expect(notes.largest.count == StoreReport.topCount)
        #expect(notes.largest.map(\.bytes) == notes.largest.map(\.bytes).sorted(by: >))
        // Every event of the store is a save, a delete or a zone event: nothing "other".
        #expect(report.zones.allSatisfy { $0.otherHeaders.isEmpty })
        #expect(report.zones.first { $0.name == "_database" }?.otherEvents.isEmpty == true)
    }

    @Test("the page is self-contained: no script, nothing fetched", arguments: fixtures)
    func selfContained(fixture: (name: String, path: String, status: String)) throws {
        let html = try Self.page(fixture.path).html
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("url("))
        #expect(!html.contains("src="))
        // The only address is SVG's namespace name, which nothing fetches.
        let addresses = html.components(separatedBy: "http").count - 1
        #expect(addresses == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
    }

    @Test("the same store gives the same page")
    func deterministic() throws {
        #expect(try Self.page(InspectFixtures.notesStore).html == Self.page(InspectFixtures.notesStore).html)
    }

    @Test("text shown in the page is escaped")
    func escaping() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-<b>&\"-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let segment = directory.appendingPathComponent("00000000000000000000.log")
        try FileManager.default.copyItem(atPath: InspectFixtures.kafkaSegment, toPath: segment.path)
        let html = try Self.page(segment.path).html
        #expect(!html.contains("<b>"))
        #expect(html.contains("report-&lt;b&gt;&amp;&quot;-"))
    }

    @Test("a timeline bins every commit, whatever the range")
    func timelineBins() throws {
        let report = try StoreReport(InspectTarget(path: InspectFixtures.notesStore))
        let html = ReportPage(report).html()
        let timeline = try #require(html.components(separatedBy: "data-chart=\"timeline\" data-zone=\"Notes\"").last)
        let chart = try #require(timeline.components(separatedBy: "</figure>").first)
        // A dot per interval holding commits, its tooltip the count: they add up to the commits.
        let counts = chart.components(separatedBy: "commits: ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(counts.reduce(0, +) == 14)
    }

    @Test("the command writes the page and says what it found")
    func command() async throws {
        let executable = try #require(ChildProcess.builtExecutable("log-inspect"))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try await ChildProcess.run(executable, ["report", InspectFixtures.tornStore, "--out", out])
        #expect(outcome.status == 0)
        #expect(outcome.outputText.contains("tornTail"))
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("data-status=\"tornTail\""))
        #expect(outcome.errorText.isEmpty, "no progress bar when standard error is not a terminal")
        let refused = try await ChildProcess.run(executable, ["report", InspectFixtures.notesStore, "--out", "/nonexistent-dir/r.html"])
        #expect(refused.status == 3)
    }

    /// Headless Chromium draws the page: it parses, lays out and paints to a non-empty picture.
    /// Runs where a browser is installed (`.ci/run` installs Debian's `chromium` and sets
    /// RECORDLOG_REQUIRE_CHROMIUM, so that CI cannot skip it silently).
    @Test("the page renders in headless Chromium")
    func rendersInChromium() async throws {
        let browser = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(Self.onPath).first
        guard let browser else {
            let required = ProcessInfo.processInfo.environment["RECORDLOG_REQUIRE_CHROMIUM"] == "1"
            #expect(!required, "RECORDLOG_REQUIRE_CHROMIUM is set but no chromium is on the PATH")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html"), picture = directory.appendingPathComponent("report.png")
        try Self.page(InspectFixtures.flippedStore).html.write(to: page, atomically: true, encoding: .utf8)
        let outcome = try await ChildProcess.run(URL(fileURLWithPath: browser), [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=820,1600",
            "--user-data-dir=" + directory.appendingPathComponent("profile").path,
            "--screenshot=" + picture.path, page.absoluteString,
        ])
        #expect(outcome.status == 0, "\(outcome.errorText)")
        let png = try Data(contentsOf: picture)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 20_000, "a page of charts is no blank picture")
    }

    private static func onPath(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
