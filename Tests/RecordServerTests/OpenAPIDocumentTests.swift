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

    @Test("no schema keeps a synthesized Codable shape: no `_0` key, no bytes as an array of integers")
    func noCodableShapes() throws {
        let document = try Self.document()
        let schemas = try #require(Self.mapping(Self.mapping(document["components"])?["schemas"]))
        #expect(schemas.count > 10, "components/schemas has \(schemas.count) schemas: nothing much to check")
        #expect(Self.mapping(document["paths"]) != nil, "the document has no paths")
        let findings = Self.codableLeftovers(in: document)
        #expect(findings.isEmpty, "Codable shapes left in docs/openapi.yaml:\n\(findings.joined(separator: "\n"))")
    }

    @Test("the Codable-shape check finds `_0` keys (in paths and components) and byte arrays (inline and by $ref)")
    func codableShapeCheckFinds() throws {
        let old = try #require(
            try Yams.load(
                yaml: """
                    paths:
                      /x:
                        post:
                          requestBody:
                            content:
                              application/json:
                                schema:
                                  type: object
                                  properties:
                                    string: { type: object, required: [_0], properties: { _0: { type: string } } }
                    components:
                      schemas:
                        Byte: { type: integer, minimum: 0, maximum: 255 }
                        Record:
                          type: object
                          properties:
                            device: { type: array, items: { type: integer, minimum: 0, maximum: 255 } }
                            data: { type: array, items: { $ref: "#/components/schemas/Byte" } }
                            kind: { type: object, properties: { _0x: { type: string } } }
                    """) as? [String: Any])
        let findings = Self.codableLeftovers(in: old)
        // `string`'s required `_0` and its property `_0`, `kind`'s property `_0x`, `device` and `data`.
        #expect(findings.count == 5, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("paths/") && $0.hasSuffix("the required key _0") })
        #expect(findings.contains { $0.hasPrefix("components/schemas/Record/properties/data:") })
    }

    /// docs/openapi.yaml, parsed.
    static func document() throws -> [String: Any] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
        return try #require(try Yams.load(yaml: String(contentsOf: file, encoding: .utf8)) as? [String: Any])
    }

    /// A YAML mapping with string keys, whichever way Yams gave it.
    static func mapping(_ node: Any?) -> [String: Any]? {
        if let object = node as? [String: Any] { return object }
        guard let object = node as? [AnyHashable: Any] else { return nil }
        return Dictionary(object.map { ("\($0.key.base)", $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// What is left of Swift's synthesized Codable shapes in every schema under
    /// `components/schemas` and every inline schema under `paths`, searched recursively, each as
    /// "where: what": a key (a property's name, or any other) or a required key named `_0` or
    /// starting with it (an enum case's payload), and an array whose items are integers up to 255
    /// (bytes, which the wire writes as base64 text), the items inline or a `$ref`.
    static func codableLeftovers(in document: [String: Any]) -> [String] {
        let schemas = mapping(mapping(document["components"])?["schemas"]) ?? [:]
        var findings: [String] = []
        func resolved(_ schema: [String: Any]) -> [String: Any] {
            let prefix = "#/components/schemas/"
            guard let reference = schema["$ref"] as? String, reference.hasPrefix(prefix),
                let target = mapping(schemas[String(reference.dropFirst(prefix.count))])
            else { return schema }
            return target
        }
        func isByte(_ schema: [String: Any]) -> Bool {
            let schema = resolved(schema)
            guard schema["type"] as? String == "integer" else { return false }
            return schema["maximum"] as? Int == 255 || schema["maximum"] as? Double == 255
        }
        func walk(_ node: Any?, at path: String) {
            if let elements = node as? [Any] {
                for (index, element) in elements.enumerated() { walk(element, at: "\(path)[\(index)]") }
                return
            }
            guard let object = mapping(node) else { return }
            for key in object.keys.sorted() where key.hasPrefix("_0") {
                findings.append("\(path): the key \(key)")
            }
            for case let key as String in object["required"] as? [Any] ?? [] where key.hasPrefix("_0") {
                findings.append("\(path): the required key \(key)")
            }
            if object["type"] as? String == "array", let items = mapping(object["items"]), isByte(items) {
                findings.append("\(path): bytes as an array of integers (the wire writes base64 text)")
            }
            for key in object.keys.sorted() { walk(object[key], at: "\(path)/\(key)") }
        }
        walk(schemas, at: "components/schemas")
        walk(document["paths"], at: "paths")
        return findings
    }
}
