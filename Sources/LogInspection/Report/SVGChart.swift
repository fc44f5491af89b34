import Foundation

/// The report's charts as inline SVG: the geometry no template library draws. Every chart has
/// axes with ticks, the unit in each axis title, and a `<title>` on each mark for a tooltip
/// without script. Colours come from CSS classes (`save`, `delete`, `zone`, `other`, …) the page
/// defines, so the charts and their legends agree.
enum SVGChart {
    /// One named series of values, drawn in the CSS class `style`.
    struct Series {
        var name: String
        var style: String
        var values: [Double]
    }

    /// One bar of a horizontal bar chart.
    struct Bar {
        var label: String
        var value: Double
        var style: String
        /// The text at the bar's end; the value when nil.
        var note: String?
    }

    static let width = 720.0
    private static let left = 64.0, right = 16.0, top = 14.0, bottom = 44.0

    /// Columns, one per slot, each stacking `series` bottom up; `dots`, if any, drawn over them
    /// at the columns' centres (on the same axis). `xLabels` labels some columns (nil: none).
    static func stackedColumns(
        series: [Series], dots: Series? = nil, xLabels: [String?], xTitle: String, yTitle: String, height: Double = 220
    ) -> String {
        let slots = max(1, xLabels.count)
        let totals = (0..<slots).map { index in series.reduce(0) { $0 + ($1.values.indices.contains(index) ? $1.values[index] : 0) } }
        let axis = Axis(maximum: max(totals.max() ?? 0, dots?.values.max() ?? 0))
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let column = plotWidth / Double(slots)
        var svg = open(height: height)
        svg += yAxis(axis, plotHeight: plotHeight, title: yTitle)
        for index in 0..<slots {
            var base = 0.0
            let x = left + Double(index) * column + column * 0.08
            for item in series where item.values.indices.contains(index) && item.values[index] > 0 {
                let value = item.values[index]
                let y0 = top + plotHeight * (1 - axis.fraction(base)), y1 = top + plotHeight * (1 - axis.fraction(base + value))
                svg += "<rect class=\"c-\(item.style)\" x=\"\(f(x))\" y=\"\(f(y1))\" width=\"\(f(column * 0.84))\" height=\"\(f(max(0.5, y0 - y1)))\">"
                svg += "<title>\(escape(xLabels.indices.contains(index) ? xLabels[index] ?? "" : "")) \(escape(item.name)): \(count(value))</title></rect>"
                base += value
            }
        }
        // The `dots` series: one dot per slot with a non-zero value, on the same axis.
        if let dots {
            for (index, value) in dots.values.enumerated() where value > 0 {
                let x = left + (Double(index) + 0.5) * column, y = top + plotHeight * (1 - axis.fraction(value))
                svg += "<circle class=\"c-\(dots.style)\" cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"2.5\">"
                svg += "<title>\(escape(xLabels.indices.contains(index) ? xLabels[index] ?? "" : "")) \(escape(dots.name)): \(count(value))</title></circle>"
            }
        }
        svg += xBaseline(plotHeight: plotHeight)
        for (index, label) in xLabels.enumerated() {
            guard let label else { continue }
            let x = left + (Double(index) + 0.5) * column
            svg += "<line class=\"tick\" x1=\"\(f(x))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(x))\" y2=\"\(f(top + plotHeight + 4))\"/>"
            svg += "<text class=\"label\" x=\"\(f(x))\" y=\"\(f(top + plotHeight + 16))\" text-anchor=\"middle\">\(escape(label))</text>"
        }
        svg += "<text class=\"title\" x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\">\(escape(xTitle))</text>"
        return svg + "</svg>"
    }

    /// Horizontal bars, one per item, with the label left of the bar and its value at its end.
    static func horizontalBars(_ bars: [Bar], xTitle: String, inBytes: Bool = false, labelWidth: Double = 180) -> String {
        let rowHeight = 22.0
        let height = top + Double(max(1, bars.count)) * rowHeight + bottom
        let axis = Axis(maximum: bars.map(\.value).max() ?? 0, binary: inBytes)
        let start = labelWidth + 8, plotWidth = width - start - 90
        var svg = open(height: height)
        let axisY = top + Double(bars.count) * rowHeight
        for tick in axis.ticks {
            let x = start + plotWidth * axis.fraction(tick)
            svg += "<line class=\"grid\" x1=\"\(f(x))\" y1=\"\(f(top))\" x2=\"\(f(x))\" y2=\"\(f(axisY))\"/>"
            svg += "<text class=\"label\" x=\"\(f(x))\" y=\"\(f(axisY + 16))\" text-anchor=\"middle\">\(inBytes ? bytes(tick) : compact(tick))</text>"
        }
        for (index, bar) in bars.enumerated() {
            let y = top + Double(index) * rowHeight
            let length = plotWidth * axis.fraction(bar.value)
            svg += "<text class=\"label\" x=\"\(f(labelWidth))\" y=\"\(f(y + 15))\" text-anchor=\"end\">\(escape(shortened(bar.label, 28)))</text>"
            svg += "<rect class=\"c-\(bar.style)\" x=\"\(f(start))\" y=\"\(f(y + 3))\" width=\"\(f(max(bar.value > 0 ? 1 : 0, length)))\" height=\"16\">"
            svg += "<title>\(escape(bar.label)): \(escape(bar.note ?? count(bar.value)))</title></rect>"
            svg += "<text class=\"value\" x=\"\(f(start + length + 4))\" y=\"\(f(y + 15))\">\(escape(bar.note ?? count(bar.value)))</text>"
        }
        svg += "<line class=\"axis\" x1=\"\(f(start))\" y1=\"\(f(top))\" x2=\"\(f(start))\" y2=\"\(f(axisY))\"/>"
        svg += "<line class=\"axis\" x1=\"\(f(start))\" y1=\"\(f(axisY))\" x2=\"\(f(start + plotWidth))\" y2=\"\(f(axisY))\"/>"
        svg += "<text class=\"title\" x=\"\(f(start + plotWidth / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\">\(escape(xTitle))</text>"
        return svg + "</svg>"
    }

    /// A zone's segments side by side, each as wide as its bytes, labelled with its base offset;
    /// a damaged segment in the `damaged` style.
    static func segmentStrip(_ segments: [(baseOffset: Int64, bytes: Int64, damaged: Bool)], xTitle: String) -> String {
        let height = 110.0
        let total = Double(max(1, segments.reduce(0) { $0 + $1.bytes }))
        let axis = Axis(maximum: total, binary: true)
        let plotWidth = width - left - right
        var svg = open(height: height)
        var x = left
        // Label at most about eight segments, evenly, so that labels never overlap.
        let every = max(1, (segments.count + 7) / 8)
        for (index, segment) in segments.enumerated() {
            let w = plotWidth * Double(segment.bytes) / total
            let style = segment.damaged ? "c-damaged" : (index % 2 == 0 ? "c-segment" : "c-segment-alt")
            svg += "<rect class=\"\(style)\" x=\"\(f(x))\" y=\"30\" width=\"\(f(max(1, w)))\" height=\"28\">"
            svg += "<title>segment at offset \(segment.baseOffset): \(bytes(Double(segment.bytes)))</title></rect>"
            if index % every == 0 {
                svg += "<text class=\"label\" x=\"\(f(x + 2))\" y=\"24\">@\(segment.baseOffset)</text>"
            }
            x += w
        }
        for tick in axis.ticks {
            let tx = left + plotWidth * axis.fraction(tick)
            svg += "<line class=\"tick\" x1=\"\(f(tx))\" y1=\"60\" x2=\"\(f(tx))\" y2=\"64\"/>"
            svg += "<text class=\"label\" x=\"\(f(tx))\" y=\"76\" text-anchor=\"middle\">\(bytes(tick))</text>"
        }
        svg += "<line class=\"axis\" x1=\"\(f(left))\" y1=\"60\" x2=\"\(f(left + plotWidth))\" y2=\"60\"/>"
        svg += "<text class=\"title\" x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\">\(escape(xTitle))</text>"
        return svg + "</svg>"
    }

    // MARK: - Parts

    private static func open(height: Double) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(width)) \(f(height))\" width=\"\(f(width))\" height=\"\(f(height))\" role=\"img\">"
    }

    private static func yAxis(_ axis: Axis, plotHeight: Double, title: String) -> String {
        var svg = ""
        for tick in axis.ticks {
            let y = top + plotHeight * (1 - axis.fraction(tick))
            svg += "<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(width - right))\" y2=\"\(f(y))\"/>"
            svg += "<text class=\"label\" x=\"\(f(left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(compact(tick))</text>"
        }
        svg += "<line class=\"axis\" x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotHeight))\"/>"
        let middle = top + plotHeight / 2
        svg += "<text class=\"title\" x=\"14\" y=\"\(f(middle))\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(f(middle)))\">\(escape(title))</text>"
        return svg
    }

    private static func xBaseline(plotHeight: Double) -> String {
        "<line class=\"axis\" x1=\"\(f(left))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(width - right))\" y2=\"\(f(top + plotHeight))\"/>"
    }

    // MARK: - Numbers and text

    /// A y (or x) axis from 0 to a round number at or above the largest value, with 3–6 ticks;
    /// `binary` makes the steps round in KiB, MiB or GiB.
    struct Axis {
        let top: Double
        let step: Double

        init(maximum: Double, binary: Bool = false) {
            guard maximum > 0 else {
                top = 1
                step = 1
                return
            }
            let unit = binary ? pow(1024, max(0, floor(log(maximum) / log(1024)))) : 1
            let rough = maximum / 4 / unit
            let magnitude = pow(10, floor(log10(rough)))
            let step = ([1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude) * unit
            // Counts and bytes never need fractional ticks.
            self.step = maximum >= 4 ? max(1, step.rounded(.up)) : step
            top = (maximum / self.step).rounded(.up) * self.step
        }

        var ticks: [Double] { stride(from: 0, through: top + step / 2, by: step).map { $0 } }

        func fraction(_ value: Double) -> Double { top > 0 ? min(1, max(0, value / top)) : 0 }
    }

    /// A coordinate with at most one decimal, so the files stay small and stable.
    static func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// A count in full with thousands separators: `1,234,567`.
    static func count(_ value: Double) -> String {
        let whole = Int(value.rounded())
        let digits = String(abs(whole))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (whole < 0 ? "-" : "") + grouped
    }

    /// A tick value: `950`, `1.5k`, `2M`.
    static func compact(_ value: Double) -> String {
        for (limit, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where abs(value) >= limit {
            return trimmed(value / limit) + suffix
        }
        return trimmed(value)
    }

    /// Bytes in binary units: `512 B`, `1.5 KiB`, `64 MiB`.
    static func bytes(_ value: Double) -> String {
        for (limit, suffix) in [(1024.0 * 1024 * 1024, "GiB"), (1024.0 * 1024, "MiB"), (1024.0, "KiB")] where value >= limit {
            return trimmed(value / limit) + " " + suffix
        }
        return trimmed(value) + " B"
    }

    private static func trimmed(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// `text` cut to `limit` characters with an ellipsis.
    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// Text escaped for SVG (XML) content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
