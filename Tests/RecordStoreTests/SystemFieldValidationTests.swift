import Foundation
@testable import RecordStore
import Testing

@Suite struct SystemFieldValidationTests {
    private let record = Record(recordType: "Note", recordID: RecordID(recordName: "n1"))

    @Test("a change tag of up to 255 bytes is accepted, a longer one rejected")
    func changeTagLength() throws {
        try record.stored(created: nil, modified: nil, tag: String(repeating: "t", count: 255)).validate()
        #expect(throws: RecordStoreError.self) {
            try record.stored(created: nil, modified: nil, tag: String(repeating: "t", count: 256)).validate()
        }
    }

    @Test("system dates outside the storable range are rejected")
    func systemDates() throws {
        try record.stored(created: .distantPast, modified: .distantFuture, tag: nil).validate()
        let late = Date.distantFuture.addingTimeInterval(1)
        #expect(throws: RecordStoreError.self) { try record.stored(created: late, modified: nil, tag: nil).validate() }
        #expect(throws: RecordStoreError.self) { try record.stored(created: nil, modified: late, tag: nil).validate() }
    }

    @Test("the stored date range is exactly Date.distantPast...Date.distantFuture in milliseconds")
    func dateRangeConstants() {
        #expect(MillisecondDate.milliseconds(of: .distantPast) == MillisecondDate.minimum)
        #expect(MillisecondDate.milliseconds(of: .distantFuture) == MillisecondDate.maximum)
        #expect(MillisecondDate.date(milliseconds: MillisecondDate.minimum) == .distantPast)
        #expect(MillisecondDate.date(milliseconds: MillisecondDate.maximum) == .distantFuture)
    }
}
