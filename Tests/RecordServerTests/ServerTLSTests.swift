import AsyncHTTPClient
import Foundation
import NIOSSL
import RecordClient
import RecordServer
import RecordStore
import TestSupport
import Testing

/// `--tls-cert`/`--tls-key`: the server speaks HTTPS, and HTTPRemoteDatabase works over it.
@Suite struct ServerTLSTests {
    @Test("with a certificate and key the server answers over HTTPS; a missing key file fails to start with a TLS error")
    func https() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("RecordServerTLS-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (certificate, key) = (directory + "/cert.pem", directory + "/key.pem")
        let made = try await ChildProcess.run(program: [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1", "-keyout", key, "-out", certificate,
        ])
        try #require(made.status == 0, "openssl: \(made.errorText)")

        let server = try await TestServer.start(scheme: "https") {
            $0.tls = .init(certificatePath: certificate, privateKeyPath: key)
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        let remote = HTTPRemoteDatabase(url: server.url, database: "notes", token: server.tokens["notes"] ?? "", client: client)
        let zone = try await remote.save(RecordZone(zoneID: ZoneID(zoneName: "Secure")))
        #expect(zone.zoneID.zoneName == "Secure")
        try await client.shutdown()
        try await server.stopAndRemove()

        var broken = RecordServerConfiguration(root: directory + "/root", port: 0)
        broken.tls = .init(certificatePath: certificate, privateKeyPath: directory + "/missing.pem")
        await #expect(throws: ServerSetupError.self) { try await RecordServer(configuration: broken).run() }
    }
}
