import Foundation
import NotesCLI
import Testing

/// `notes sync --remote`: a directory, or a server URL with its database and token.
@Suite struct NotesRemoteTests {
    @Test("a URL needs a database and a token (from --token or $RECORDLOG_TOKEN); a directory takes neither")
    func resolve() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080"))
        #expect(try NotesRemote.resolve(remote: "/srv/hub", database: nil, token: nil, environment: [:]) == .directory("/srv/hub"))
        #expect(
            try NotesRemote.resolve(remote: "http://127.0.0.1:8080", database: "notes", token: "t", environment: [:])
                == .server(url: url, database: "notes", token: "t"))
        #expect(
            try NotesRemote.resolve(remote: "http://127.0.0.1:8080", database: "notes", token: nil, environment: ["RECORDLOG_TOKEN": "e"])
                == .server(url: url, database: "notes", token: "e"))
        #expect(throws: NotesRemoteError.missingToken) {
            try NotesRemote.resolve(remote: "http://127.0.0.1:8080", database: "notes", token: nil, environment: [:])
        }
        #expect(throws: NotesRemoteError.missingDatabase) {
            try NotesRemote.resolve(remote: "https://example.com", database: nil, token: "t", environment: [:])
        }
        #expect(throws: NotesRemoteError.serverOptionsForDirectory) {
            try NotesRemote.resolve(remote: "/srv/hub", database: "notes", token: nil, environment: [:])
        }
        #expect(throws: NotesRemoteError.invalidURL("http://")) { try NotesRemote.resolve(remote: "http://", database: "n", token: "t", environment: [:]) }
    }
}
