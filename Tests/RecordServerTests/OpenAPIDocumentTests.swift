import Foundation
import NIOHTTP1
import RecordServer
import RecordStore
import RecordWire
import Testing
import Yams

/// docs/openapi.yaml is the API's contract: it lists exactly the routes the server answers, and
/// every documented status of every path is one the server's error codes can give.
@Suite struct OpenAPIDocumentTests {
    /// (method, path) of every operation in the document.
    static func documentedOperations() throws -> [String: Set<String>] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
        let document = try #require(try Yams.load(yaml: String(contentsOf: file, encoding: .utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.0.3")
        let paths = try #require(document["paths"] as? [String: Any])
        var operations: [String: Set<String>] = [:]
        for (path, item) in paths {
            let methods = try #require(item as? [String: Any]).keys.filter { ["get", "post", "put", "delete", "patch", "head"].contains($0) }
            operations[path] = Set(methods.map { $0.uppercased() })
        }
        return operations
    }

    @Test("the document lists every route the server answers, and no other")
    func routesMatch() throws {
        let server = RecordServer(configuration: RecordServerConfiguration(root: "/nonexistent"))
        var answered: [String: Set<String>] = [:]
        for route in server.routes() { answered[route.path, default: []].insert(route.method) }
        let documented = try Self.documentedOperations()
        #expect(documented == answered)
    }

    @Test("every documented operation answers (with the database's token): none is an unknown path, none a 5xx")
    func everyDocumentedPathAnswers() async throws {
        let server = try await TestServer.start()
        let token = server.tokens["notes"]
        _ = try await server.remote().save(RecordZone(zoneID: ZoneID(zoneName: "Notes")))
        for (path, methods) in try Self.documentedOperations() {
            let concrete = path.replacingOccurrences(of: "{database}", with: "notes").replacingOccurrences(of: "{subscriptionID}", with: "missing")
            for method in methods {
                let answer = try await server.raw(.RAW(value: method), concrete, body: method == "POST" ? "{}" : nil, token: token)
                #expect(answer.error?.serverErrorCode != .unknownPath, "\(method) \(path) is not answered")
                #expect(answer.status < 500, "\(method) \(path) answered \(answer.status): \(answer.body)")
            }
        }
        try await server.stopAndRemove()
    }

    @Test("every error code's status is documented as an answer of the paths under a database")
    func errorStatusesDocumented() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        for code in ServerErrorCode.allCases {
            #expect(text.contains(code.rawValue), "\(code.rawValue) is not in the document")
            // 405 answers an operation the document does not have, so no operation lists it.
            guard code != .methodNotAllowed else { continue }
            #expect(text.contains("\"\(code.httpStatus)\":"), "status \(code.httpStatus) of \(code.rawValue) is never documented")
        }
    }
}
