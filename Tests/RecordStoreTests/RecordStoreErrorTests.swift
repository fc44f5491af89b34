import Foundation
@testable import RecordStore
import Testing

@Suite struct RecordStoreErrorTests {
    private let id = RecordID(recordName: "n1", zoneID: Sample.zone)

    @Test("codes keep CKError.Code's raw values")
    func rawValues() {
        let expected: [RecordStoreError.Code: Int] = [
            .internalError: 1, .partialFailure: 2, .unknownItem: 11, .invalidArguments: 12,
            .serverRecordChanged: 14, .changeTokenExpired: 21, .batchRequestFailed: 22,
            .zoneNotFound: 26, .limitExceeded: 27, .referenceViolation: 31,
        ]
        #expect(RecordStoreError.Code.allCases.count == expected.count)
        for code in RecordStoreError.Code.allCases { #expect(code.rawValue == expected[code], "\(code)") }
    }

    @Test("a code is a catch pattern that matches only errors with that code")
    func catchByCode() {
        func matched(_ error: any Error) -> String {
            do { throw error } catch RecordStoreError.invalidArguments {
                return "invalidArguments"
            } catch RecordStoreError.unknownItem {
                return "unknownItem"
            } catch {
                return "other"
            }
        }
        #expect(matched(RecordStoreError.unknownItem(id)) == "unknownItem")
        #expect(matched(RecordStoreError(.invalidArguments, "x")) == "invalidArguments")
        #expect(matched(RecordStoreError.zoneNotFound(Sample.zone)) == "other")
        #expect(matched(CocoaError(.fileNoSuchFile)) == "other")
    }

    @Test("serverRecordChanged carries the server's record, the client's and the ancestor")
    func serverRecordChanged() {
        let server = Sample.everyKind()
        var client = server
        client["title"] = .string("mine")
        let ancestor = server.stored(created: nil, modified: nil, tag: "0-1")
        let error = RecordStoreError.serverRecordChanged(server.recordID, serverRecord: server, clientRecord: client, ancestor: .found(ancestor))
        #expect(error.code == .serverRecordChanged)
        #expect(error.serverRecord == server)
        #expect(error.clientRecord == client)
        #expect(error.ancestorRecord == ancestor)
        #expect(error.recordID == server.recordID)
        #expect(error.message.contains("serverRecord"))
    }

    @Test("partialFailure carries each item's error, and says whether anything was written")
    func partialFailure() {
        let other = RecordID(recordName: "n2", zoneID: Sample.zone)
        let items = [id: RecordStoreError.unknownItem(id), other: RecordStoreError.batchRequestFailed(other)]
        let atomic = RecordStoreError.partialFailure(items, atomic: true)
        #expect(atomic.code == .partialFailure)
        #expect(atomic.partialErrors[id]?.code == .unknownItem)
        #expect(atomic.partialErrors[other]?.code == .batchRequestFailed)
        #expect(atomic.message.contains("nothing was written"))
        #expect(!RecordStoreError.partialFailure(items, atomic: false).message.contains("nothing was written"))
    }

    @Test("each factory sets its code and says what to do")
    func factories() {
        let errors: [(RecordStoreError, RecordStoreError.Code, String)] = [
            (.unknownItem(id), .unknownItem, "does not exist"),
            (.unknownRecordType("Nte"), .unknownItem, "Nte"),
            (.zoneNotFound(Sample.zone), .zoneNotFound, "Create the zone"),
            (.batchRequestFailed(id), .batchRequestFailed, "retry the whole request"),
            (.tooManyItems(401, limit: 400), .limitExceeded, "Split"),
            (.changeTokenExpired(Sample.zone), .changeTokenExpired, "nil token"),
            (.referenceViolation(from: id, to: RecordID(recordName: "gone", zoneID: Sample.zone)), .referenceViolation, "gone"),
        ]
        for (error, code, phrase) in errors {
            #expect(error.code == code)
            #expect(error.message.contains(phrase), "\(error)")
            #expect(error.description.hasPrefix("\(code): "))
        }
    }
}
