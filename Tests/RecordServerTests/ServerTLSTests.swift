import AsyncHTTPClient
import Foundation
import NIOSSL
import RecordClient
import RecordServer
import RecordStore
import TestSupport
import Testing

/// `--tls-cert`/`--tls-key`: the server speaks HTTPS, and HTTPRemoteDatabase speaks TLS to it.
///
/// HTTPRemoteDatabase's URLSession cannot be told to trust the test's self-signed certificate on
/// Linux: swift-corelibs-foundation raises no server-trust challenge, and it gives libcurl the
/// system's CA bundle (its `URLSessionCertificateAuthorityInfoFile` variable is read on Android
/// only; `SSL_CERT_FILE` and `CURL_CA_BUNDLE` change nothing either). So the API over HTTPS is
/// checked with a client that trusts the certificate (AsyncHTTPClient), and HTTPRemoteDatabase
/// is checked to verify the certificate it is shown: it refuses this one, with libcurl's
/// "SSL certificate problem" — a TLS verdict, not a plain-HTTP request to a TLS port.
@Suite struct ServerTLSTests {
    @Test("with a certificate and key the server answers over HTTPS; HTTPRemoteDatabase verifies the certificate; a missing key file fails to start")
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
        let token = server.tokens["notes"] ?? ""

        // The API over HTTPS, for a client that trusts the certificate.
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        var request = HTTPClientRequest(url: server.url.absoluteString + "/v1/databases/notes/zones/list")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let answer = try await client.execute(request, timeout: .seconds(30))
        #expect(answer.status.code == 200)
        var wrong = request
        wrong.headers.replaceOrAdd(name: "Authorization", value: "Bearer wrong")
        #expect(try await client.execute(wrong, timeout: .seconds(30)).status.code == 401)
        try await client.shutdown()

        // HTTPRemoteDatabase over https: URLSession verifies the certificate against the system's
        // trust store, where a self-signed one is not.
        let remote = HTTPRemoteDatabase(url: server.url, database: "notes", token: token, retryPolicy: .never)
        do {
            _ = try await remote.save(RecordZone(zoneID: ZoneID(zoneName: "Secure")))
            Issue.record("HTTPRemoteDatabase accepted a self-signed certificate")
        } catch let error as HTTPRemoteDatabaseError {
            #expect(error.kind == .unavailable)
            #expect(error.message.localizedCaseInsensitiveContains("certificate"), "\(error.message)")
        }
        try await server.stopAndRemove()

        var broken = RecordServerConfiguration(root: directory + "/root", port: 0)
        broken.tls = .init(certificatePath: certificate, privateKeyPath: directory + "/missing.pem")
        await #expect(throws: ServerSetupError.self) { try await RecordServer(configuration: broken).run() }
    }
}
