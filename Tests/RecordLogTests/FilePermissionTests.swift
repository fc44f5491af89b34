import Foundation
import Testing
@testable import RecordLog

@Suite struct FilePermissionTests {
    @Test("every file the store creates is 0600 and every directory 0700")
    func permissions() async throws {
        try await withStorePath { store in
            try await makeStore(
                at: store, options: fastOptions(segmentBytes: 4096), events: Sample.events(0..<200, valueBytes: 60),
                batchSize: 5)
            var checked = (files: 0, directories: 0)
            var pending = [store]
            while let directory = pending.popLast() {
                let mode = try #require(try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int)
                #expect(mode == 0o700, "\(directory) is \(String(mode, radix: 8))")
                checked.directories += 1
                for name in try listDirectory(directory) {
                    let path = directory + "/" + name
                    let attributes = try FileManager.default.attributesOfItem(atPath: path)
                    if attributes[.type] as? FileAttributeType == .typeDirectory {
                        pending.append(path)
                        continue
                    }
                    let fileMode = try #require(attributes[.posixPermissions] as? Int)
                    #expect(fileMode == 0o600, "\(path) is \(String(fileMode, radix: 8))")
                    checked.files += 1
                }
            }
            // The store, zones/ and the partition; marker, lock, checkpoint, zone.name and the segments.
            #expect(checked.directories == 3)
            #expect(checked.files >= 10)
        }
    }
}
