import Foundation
import LogInspection
import RecordLog
import Testing

/// follow yields what is appended after it started, and nothing that was there before.
@Suite struct InspectFollowTests {
    @Test(.timeLimit(.minutes(10)))
    func followSeesAnAppendMadeAfterItStarted() async throws {
        let (directory, log) = try makeStore()
        defer { close(log, directory) }
        let zone = try log.createPartition(named: "Notes")
        _ = try await zone.append(batch(key: "before"))

        let follower = try LogFollower(store: directory, pollInterval: .milliseconds(5))
        let firstTwo = Task {
            var seen: [String] = []
            for try await record in follower {
                seen.append("\(record.zone)/\(record.record.offset)/\(record.record.keyString ?? "")")
                if seen.count == 2 { break }
            }
            return seen
        }
        _ = try await zone.append(batch(key: "after"))
        let other = try log.createPartition(named: "Later")
        _ = try await other.append(batch(key: "in-a-new-zone"))
        let seen = try await firstTwo.value
        #expect(Set(seen) == ["Notes/1/after", "Later/0/in-a-new-zone"])
    }

    @Test(.timeLimit(.minutes(10)))
    func followEndsWhenCancelled() async throws {
        let (directory, log) = try makeStore()
        defer { close(log, directory) }
        try log.createPartition(named: "Notes")
        let follower = try LogFollower(store: directory, zone: "Notes", pollInterval: .milliseconds(5))
        let task = Task {
            var count = 0
            for try await _ in follower { count += 1 }
            return count
        }
        task.cancel()
        #expect(try await task.value == 0)
    }

    /// A new store in a temporary directory, open for writing.
    private func makeStore() throws -> (String, Log) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-follow-\(UUID().uuidString)").path
        return (directory, try Log(directory: directory))
    }

    private func close(_ log: Log, _ directory: String) {
        try? log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func batch(key: String) -> RecordBatchBuilder {
        var batch = RecordBatchBuilder()
        batch.append(key: key, value: Array("value".utf8))
        return batch
    }
}
