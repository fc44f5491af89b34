import Foundation
import Mustache

/// A ``StoreReport`` as one self-contained HTML page: inline CSS and SVG, no script, nothing
/// fetched, so it opens offline and can be mailed or attached to an issue.
///
/// ```swift
/// let page = try ReportPage(StoreReport(InspectTarget(path: store)))
/// try page.html().write(toFile: "report.html", atomically: true, encoding: .utf8)
/// ```
///
/// The page is ``ReportTemplate/page`` (Mustache, which escapes every text it shows); the charts
/// are drawn by `SVGChart`. Every chart is a `<figure class="chart" data-chart="…"
/// data-zone="…">` with axes, units and a caption; the verdict is `<section id="verdict"
/// class="verdict STATUS">` with STATUS `clean`, `tornTail` or `corrupt`.
public struct ReportPage: Sendable {
    /// How many intervals the timelines have, whatever the log's length.
    public static let timelineBins = 48

    /// The report drawn.
    public let report: StoreReport

    /// A page for `report`.
    public init(_ report: StoreReport) {
        self.report = report
    }

    /// The page's HTML. Depends on the report only (no clock, no path of the machine but the one
    /// given), so the same store gives the same bytes.
    public func html() -> String {
        // The template is a constant checked by the tests: it parses.
        guard let template = try? MustacheTemplate(string: ReportTemplate.page) else { return "" }
        return template.render(PageView(report))
    }
}

// MARK: - What the template reads (Mustache reads these by their property names)

struct PageView {
    let title: String
    let path: String
    let kind: String
    let verdict: VerdictView
    let zoneCount: Int
    let records: String
    let bytes: String
    let timeRange: String
    let zones: [ZoneView]

    init(_ report: StoreReport) {
        path = report.path
        title = "RecordLog report: " + (report.path.split(separator: "/").last.map(String.init) ?? report.path)
        kind = report.isStore ? "store" : "segment file"
        verdict = VerdictView(report.verdict)
        zoneCount = report.zones.count
        records = SVGChart.count(Double(report.zones.reduce(0) { $0 + $1.summary.records }))
        bytes = SVGChart.bytes(Double(report.zones.reduce(Int64(0)) { $0 + $1.summary.bytes }))
        let range = report.timeRange
        timeRange = range.map { "\(Timestamp.iso8601(milliseconds: $0.lowerBound)) … \(Timestamp.iso8601(milliseconds: $0.upperBound))" } ?? "no records"
        zones = report.zones.map { ZoneView($0, range: range) }
    }
}

struct VerdictView {
    let status: String
    let headline: String
    let problems: [ProblemView]
    let hasProblems: Bool

    init(_ verify: VerifyReport) {
        status = verify.status.rawValue
        headline =
            switch verify.status {
            case .clean: "Clean: every batch, record and index checks out."
            case .tornTail: "Torn tail: an append at the very end never completed (never acknowledged); the next writer's open cuts it off."
            case .corrupt: "CORRUPT: acknowledged data is damaged; the writer refuses to open the store (see Log.repair)."
            }
        problems = verify.problems.map(ProblemView.init)
        hasProblems = !problems.isEmpty
    }
}

struct ProblemView {
    let severity: String
    let kind: String
    let zone: String
    let file: String
    let position: String
    let offset: String
    let message: String

    init(_ problem: VerifyProblem) {
        severity = problem.isError ? "error" : "warning"
        kind = problem.kind.rawValue
        zone = problem.zone
        file = problem.file
        position = problem.position.map(String.init) ?? "–"
        offset = problem.offset.map(String.init) ?? "–"
        message = problem.message
    }
}

struct FigureView {
    let chart: String
    let zone: String
    let svg: String
    let caption: String
    let legend: [LegendItem]
    let hasLegend: Bool

    init(chart: String, zone: String, svg: String, caption: String, legend: [LegendItem] = []) {
        self.chart = chart
        self.zone = zone
        self.svg = svg
        self.caption = caption
        self.legend = legend
        hasLegend = !legend.isEmpty
    }
}

struct LegendItem {
    let name: String
    let style: String
}

struct ZoneView {
    let name: String
    let anchor: String
    let offsets: String
    let records: Int
    let batches: Int
    let time: String
    let figures: [FigureView]
    let segments: [SegmentRow]
    let rewritten: [KeyRow]
    let hasRewritten: Bool
    let largest: [LargeRow]
    let hasLargest: Bool
    let otherEvents: [CountRow]
    let otherHeaders: [CountRow]
    let hasOther: Bool

    init(_ zone: ZoneReport, range: ClosedRange<Int64>?) {
        let summary = zone.summary
        name = summary.name
        anchor = "zone-" + String(summary.name.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "-" })
        offsets = "\(summary.startOffset)..<\(summary.endOffset)"
        records = summary.records
        batches = summary.batches
        time = summary.firstTimestamp.map { first in
            "\(Timestamp.iso8601(milliseconds: first)) … \(Timestamp.iso8601(milliseconds: summary.lastTimestamp ?? first))"
        } ?? "empty"
        var figures = [Self.timeline(zone, range: range), Self.batchSizes(zone), Self.bytes(zone), Self.segments(zone)]
        if !summary.recordsByEvent.isEmpty { figures.append(Self.byEvent(zone)) }
        if !summary.recordsByType.isEmpty { figures.append(Self.byType(zone)) }
        self.figures = figures
        segments = summary.segments.map(SegmentRow.init)
        rewritten = zone.mostRewritten.map(KeyRow.init)
        hasRewritten = !rewritten.isEmpty
        largest = zone.largest.map(LargeRow.init)
        hasLargest = !largest.isEmpty
        otherEvents = CountRow.rows(zone.otherEvents)
        otherHeaders = CountRow.rows(zone.otherHeaders)
        hasOther = !otherEvents.isEmpty || !otherHeaders.isEmpty
    }

    private static let eventLegend = [
        LegendItem(name: "saves", style: "save"), LegendItem(name: "deletes", style: "delete"),
        LegendItem(name: "zone events", style: "zone"), LegendItem(name: "other events", style: "other"),
        LegendItem(name: "commits (dots)", style: "commits"),
    ]

    private static func timeline(_ zone: ZoneReport, range: ClosedRange<Int64>?) -> FigureView {
        let timeline = Timeline(zone.commits, range: range ?? 0...0, count: ReportPage.timelineBins)
        let svg = SVGChart.stackedColumns(
            series: [
                .init(name: "saves", style: "save", values: timeline.saves),
                .init(name: "deletes", style: "delete", values: timeline.deletes),
                .init(name: "zone events", style: "zone", values: timeline.zoneEvents),
                .init(name: "other events", style: "other", values: timeline.others),
            ],
            dots: .init(name: "commits", style: "commits", values: timeline.commits),
            xLabels: timeline.labels, xTitle: "time (UTC), intervals of \(timeline.widthText)",
            yTitle: "records per interval")
        let caption =
            "Records appended to \(zone.name) per \(timeline.widthText), stacked by event; a dot counts the commits "
            + "(batches) in each interval. \(SVGChart.count(Double(zone.summary.records))) records in "
            + "\(SVGChart.count(Double(zone.summary.batches))) commits."
        return FigureView(chart: "timeline", zone: zone.name, svg: svg, caption: caption, legend: eventLegend)
    }

    private static func batchSizes(_ zone: ZoneReport) -> FigureView {
        let labels: [String?] = zone.batchSizes.indices.map { index in
            index == 0 ? "1" : "\(1 << index)–\((1 << (index + 1)) - 1)"
        }
        let svg = SVGChart.stackedColumns(
            series: [.init(name: "commits", style: "batch", values: zone.batchSizes.map(Double.init))],
            xLabels: labels.isEmpty ? [nil] : labels, xTitle: "records per commit (powers of two)", yTitle: "commits", height: 200)
        let most = zone.batchSizes.indices.max { zone.batchSizes[$0] < zone.batchSizes[$1] }
        let mode = most.map { labels[$0] ?? "" } ?? "–"
        let average = zone.summary.batches > 0 ? Double(zone.summary.records) / Double(zone.summary.batches) : 0
        let caption =
            "Commits (batches) of \(zone.name) by the number of records they hold. Most hold \(mode); "
            + "on average \(String(format: "%.1f", average)) records per commit."
        return FigureView(chart: "batch-sizes", zone: zone.name, svg: svg, caption: caption)
    }

    private static func bytes(_ zone: ZoneReport) -> FigureView {
        let summary = zone.summary
        let svg = SVGChart.horizontalBars(
            [
                .init(label: "records, raw", value: Double(summary.rawBytes), style: "raw", note: SVGChart.bytes(Double(summary.rawBytes))),
                .init(
                    label: "records, as stored", value: Double(summary.compressedBytes), style: "stored",
                    note: SVGChart.bytes(Double(summary.compressedBytes))),
                .init(label: "segment files", value: Double(summary.bytes), style: "file", note: SVGChart.bytes(Double(summary.bytes))),
            ], xTitle: "bytes", inBytes: true)
        let ratio = summary.compressedBytes > 0 ? Double(summary.rawBytes) / Double(summary.compressedBytes) : 0
        let caption =
            "Bytes of the records of \(zone.name), uncompressed (raw) and as stored in their batches (LZ4): "
            + "\(String(format: "%.2f", ratio)) : 1. The segment files add batch headers (and, while open, preallocated space)."
        return FigureView(chart: "bytes", zone: zone.name, svg: svg, caption: caption)
    }

    private static func segments(_ zone: ZoneReport) -> FigureView {
        let segments = zone.summary.segments
        let svg = SVGChart.segmentStrip(
            segments.map { ($0.baseOffset, $0.bytes, $0.damaged > 0) }, xTitle: "bytes, segment after segment")
        let damaged = segments.filter { $0.damaged > 0 }.count
        let caption =
            "The \(segments.count) segment file\(segments.count == 1 ? "" : "s") of \(zone.name), oldest first, each as wide "
            + "as its bytes and labelled with its base offset (the first offset it holds)"
            + (damaged > 0 ? "; \(damaged) with damaged stretches, in red (see the verdict)." : ".")
        return FigureView(
            chart: "segments", zone: zone.name, svg: svg, caption: caption,
            legend: damaged > 0 ? [LegendItem(name: "damaged", style: "damaged")] : [])
    }

    private static func byEvent(_ zone: ZoneReport) -> FigureView {
        let bars = zone.summary.recordsByEvent.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { event, count in
            SVGChart.Bar(label: event, value: Double(count), style: Self.style(ofEvent: event))
        }
        return FigureView(
            chart: "by-event", zone: zone.name, svg: SVGChart.horizontalBars(bars, xTitle: "records"),
            caption: "Records of \(zone.name) by event kind (the event header).")
    }

    private static func byType(_ zone: ZoneReport) -> FigureView {
        let bars = zone.summary.recordsByType.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(20).map { type, count in
            SVGChart.Bar(label: type, value: Double(count), style: "type")
        }
        let more = zone.summary.recordsByType.count > 20 ? " The 20 most frequent of \(zone.summary.recordsByType.count) types." : ""
        return FigureView(
            chart: "by-type", zone: zone.name, svg: SVGChart.horizontalBars(Array(bars), xTitle: "records"),
            caption: "Records of \(zone.name) by record type (saves and deletes).\(more)")
    }

    static func style(ofEvent event: String) -> String {
        switch event {
        case "save": "save"
        case "delete": "delete"
        case "createZone", "deleteZone": "zone"
        default: "other"
        }
    }
}

struct SegmentRow {
    let file: String
    let baseOffset: Int64
    let bytes: String
    let batches: Int
    let records: Int
    let damaged: Int
    let isDamaged: Bool

    init(_ segment: SegmentSummary) {
        file = segment.file
        baseOffset = segment.baseOffset
        bytes = SVGChart.count(Double(segment.bytes))
        batches = segment.batches
        records = segment.records
        damaged = segment.damaged
        isDamaged = segment.damaged > 0
    }
}

struct KeyRow {
    let key: String
    let events: Int
    let deletes: Int
    let lastOffset: Int64

    init(_ key: KeyEvents) {
        self.key = key.key
        events = key.events
        deletes = key.deletes
        lastOffset = key.lastOffset
    }
}

struct LargeRow {
    let offset: Int64
    let key: String
    let event: String
    let recordType: String
    let bytes: String
    let valueBytes: String

    init(_ record: RecordExtent) {
        offset = record.offset
        key = record.key
        event = record.event
        recordType = record.recordType ?? "–"
        bytes = SVGChart.count(Double(record.bytes))
        valueBytes = SVGChart.count(Double(record.valueBytes))
    }
}

struct CountRow {
    let name: String
    let count: Int

    static func rows(_ counts: [String: Int]) -> [CountRow] {
        counts.sorted { $0.key < $1.key }.map { CountRow(name: $0.key, count: $0.value) }
    }
}
