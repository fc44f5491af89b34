import RecordLog

/// W10: our encode path — record framing, LZ4 and the batch's CRC, as a writer encodes commit
/// after commit — against liblz4 alone compressing the same keys and values, in commits of
/// `batch` records. `--encode-cost` runs it alone, `rounds` times, so that a change to the
/// encode path can be measured and profiled without the other workloads.
enum EncodeCost {
    struct Outcome {
        /// Our bytes (the uncompressed records section) and liblz4's (keys and values), per second.
        var oursBytesPerSecond: Double
        var peerBytesPerSecond: Double
        /// liblz4's bytes per second counting the gathering of each commit's keys and values
        /// into the one buffer it compresses (into a kept buffer, as a writer would): what our
        /// side does before compressing, and the peer's figure leaves out.
        var peerWithGatherBytesPerSecond: Double
    }

    typealias Event = (key: [UInt8], value: [UInt8], timestamp: Int64)

    /// The first `rows` rows of the dataset as events: name, content, creation.
    static func input(rows: Int) -> [Event] {
        (0..<rows).map { index in
            let row = Dataset.row(index)
            return (key: Array(row.name.utf8), value: Array(row.content.utf8), timestamp: row.created)
        }
    }

    /// Each side `rounds` times, the sides taking turns (and turns about which goes first), so
    /// that a drift of the host's speed falls on all of them; each figure is the median round.
    /// Every side keeps its output memory from one commit to the next, as a writer does: ours
    /// encodes into the batch it encoded last, liblz4 compresses into one kept buffer.
    static func measure(_ input: [Event], batch: Int, rounds: Int = 5) async throws -> Outcome {
        let rows = input.count
        let plain = stride(from: 0, to: rows, by: batch).map { start in
            input[start..<min(start + batch, rows)].flatMap { $0.key + $0.value }
        }
        let peerBytes = plain.reduce(0) { $0 + $1.count }
        var ourBytes = 0
        var builder = RecordBatchBuilder(reservingCapacity: batch * 400)
        var spent: EncodedBatch?
        var output: [UInt8] = []
        var gathered: [UInt8] = []
        gathered.reserveCapacity(batch * 400)

        func ours() async throws -> Double {
            ourBytes = 0
            return try await Measure.seconds {
                for start in stride(from: 0, to: rows, by: batch) {
                    builder.removeAll()
                    // By index: each event's arrays are lent to the builder, not copied out of
                    // `input` (a copy is two retains and two releases a record).
                    for index in start..<min(start + batch, rows) {
                        builder.append(key: input[index].key, value: input[index].value, timestamp: input[index].timestamp)
                    }
                    ourBytes += builder.uncompressedSize
                    spent = try builder.encode(reusing: spent.take())
                }
            }
        }
        func peer() async throws -> Double {
            try await Measure.seconds {
                for bytes in plain { _ = try LiblZ4Peer.compressFrame(bytes, into: &output) }
            }
        }
        func peerWithGather() async throws -> Double {
            try await Measure.seconds {
                for start in stride(from: 0, to: rows, by: batch) {
                    gathered.removeAll(keepingCapacity: true)
                    for index in start..<min(start + batch, rows) {
                        gathered.append(contentsOf: input[index].key)
                        gathered.append(contentsOf: input[index].value)
                    }
                    _ = try LiblZ4Peer.compressFrame(gathered, into: &output)
                }
            }
        }
        var oursSeconds: [Double] = [], peerSeconds: [Double] = [], gatherSeconds: [Double] = []
        for round in 0..<max(1, rounds) {
            if round.isMultiple(of: 2) {
                oursSeconds.append(try await ours())
                peerSeconds.append(try await peer())
            } else {
                peerSeconds.append(try await peer())
                oursSeconds.append(try await ours())
            }
            gatherSeconds.append(try await peerWithGather())
        }
        return Outcome(
            oursBytesPerSecond: Double(ourBytes) / median(oursSeconds), peerBytesPerSecond: Double(peerBytes) / median(peerSeconds),
            peerWithGatherBytesPerSecond: Double(peerBytes) / median(gatherSeconds))
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// Our side in two parts, seconds each, as ``measure(_:batch:)`` runs it (one builder, kept):
    /// appending each commit's records to the builder, and encoding it.
    static func parts(_ input: [Event], batch: Int) throws -> (appends: Double, encodes: Double) {
        let clock = ContinuousClock()
        var appends = Duration.zero, encodes = Duration.zero
        var builder = RecordBatchBuilder(reservingCapacity: batch * 400)
        var spent: EncodedBatch?
        for start in stride(from: 0, to: input.count, by: batch) {
            let began = clock.now
            builder.removeAll()
            for index in start..<min(start + batch, input.count) {
                builder.append(key: input[index].key, value: input[index].value, timestamp: input[index].timestamp)
            }
            let appended = clock.now
            spent = try builder.encode(reusing: spent.take())
            encodes += clock.now - appended
            appends += appended - began
        }
        return (Measure.seconds(of: appends), Measure.seconds(of: encodes))
    }

    /// `--encode-cost [--records N] [--rounds R]`: W10 `rounds` times, a line each.
    static func run(rows: Int, rounds: Int) async throws -> String {
        var lines: [String] = []
        let input = input(rows: rows)
        for _ in 0..<rounds {
            let outcome = try await measure(input, batch: 1_000)
            let (appends, encodes) = try parts(input, batch: 1_000)
            lines.append(String(
                format: "ours %.0f MB/s, liblz4 %.0f MB/s: %.3f×; liblz4 with its gather %.0f MB/s: %.3f×; ours in parts: appends %.1f ms, encodes %.1f ms",
                outcome.oursBytesPerSecond / 1e6, outcome.peerBytesPerSecond / 1e6, outcome.oursBytesPerSecond / outcome.peerBytesPerSecond,
                outcome.peerWithGatherBytesPerSecond / 1e6, outcome.oursBytesPerSecond / outcome.peerWithGatherBytesPerSecond,
                appends * 1e3, encodes * 1e3))
        }
        return lines.joined(separator: "\n")
    }
}
