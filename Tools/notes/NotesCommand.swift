import ArgumentParser
import Foundation
import Notes
import NotesCLI
import RecordClient
import RecordStore
import RecordSync

/// The Notes app in a terminal, over an embedded RecordLog store.
@main
struct NotesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "Folders and notes, kept in an embedded RecordLog store.",
        discussion: """
            The store is the directory given by --store, else $NOTES_STORE, else \
            $XDG_DATA_HOME/recordlog-notes, else ~/.local/share/recordlog-notes. Every change is \
            a durable commit appended to the store's log; inspect it with log-inspect.

            Examples:
              notes add "Buy milk"                 (into "My Notes", created on first use)
              notes add-folder Work
              notes add --folder Work "Call Anna"
              notes list --json
              notes edit <id> "Buy oat milk"
              notes sync --remote /srv/notes-hub   (send and receive changes: see SYNC.md)
            """,
        subcommands: [Folders.self, AddFolder.self, DeleteFolder.self, Add.self, Edit.self, Delete.self, List.self, Sync.self])

    /// `--store` before the subcommand (`notes --store DIR list`); after it works too.
    @OptionGroup var options: StoreOptions
}

/// The options every command takes.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "The store directory (default: $NOTES_STORE or ~/.local/share/recordlog-notes).")
    var store: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How many seconds a command that writes waits for another writer to finish (default: 30).",
            discussion: "Writers take turns on a store; readers never wait.", valueName: "seconds"))
    var wait: Int?

    /// How long a writing command waits for the store's lock when `--wait` is not given: far
    /// longer than a writer holds it (one open, commit and close, milliseconds), so that commands
    /// started together — from a script, or by a user in several terminals — all get their turn
    /// even on a loaded machine, and short enough that a store held open by a long-running
    /// process is reported rather than waited on forever.
    static let defaultWait: Duration = .seconds(30)

    /// A negative wait is a usage error (exit status 64 with the usage), not a wait of zero.
    func validate() throws {
        if let wait, wait < 0 {
            throw ValidationError("--wait must be 0 or more seconds, not \(wait).")
        }
    }

    /// Opens the store, runs `body` with the app, prints its output, and turns a user error into
    /// a message on stderr and exit status 1.
    ///
    /// A command that only reads opens the store read-only, beside any writer; one that writes
    /// waits its turn for the store's lock (`--wait`). The first command on a fresh store creates
    /// it with the default folder, as the app did at its first launch — in the same open as its
    /// own work when it writes, so that it takes the lock once.
    func run(parent: StoreOptions, readOnly: Bool = false, _ body: (NotesApp) async throws -> String) async throws {
        let path = NotesStoreLocation.resolve(option: store ?? parent.store, environment: ProcessInfo.processInfo.environment)
        let lockTimeout = (wait ?? parent.wait).map { Duration.seconds($0) } ?? Self.defaultWait
        do {
            let fresh = !NotesStoreLocation.holdsStore(path)
            if fresh, readOnly {
                let creating = try await Database(directory: path, lockTimeout: lockTimeout)
                try await Self.closing(creating) { _ = try await RecordNotesManager(database: $0).createDefaultFolder() }
            }
            let database = try await Database(directory: path, readOnly: readOnly, lockTimeout: lockTimeout)
            let output = try await Self.closing(database) { database in
                let manager = try await RecordNotesManager(database: database)
                if fresh, !readOnly { _ = try await manager.createDefaultFolder() }
                return try await body(NotesApp(manager: manager))
            }
            if !output.isEmpty { print(output) }
        } catch let error as NotesAppError {
            FileHandle.standardError.write(Data("notes: \(error)\n".utf8))
            throw ExitCode(1)
        } catch let error as NotesError {
            FileHandle.standardError.write(Data("notes: \(error)\n".utf8))
            throw ExitCode(1)
        } catch let error as ExitCode {
            throw error
        } catch {
            FileHandle.standardError.write(Data("notes: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// Runs `body` with `database`, then closes it, whether `body` threw or not.
    private static func closing<Value>(_ database: Database, _ body: (Database) async throws -> Value) async throws -> Value {
        let value: Value
        do {
            value = try await body(database)
        } catch {
            try? database.close()
            throw error
        }
        try database.close()
        return value
    }
}

struct Folders: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the folders, by name.")
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Flag(help: "Print a JSON array of {id, name, createdAt, modifiedAt}.") var json = false

    func run() async throws { try await options.run(parent: parent.options, readOnly: true) { try await $0.folders(json: json) } }
}

struct AddFolder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add-folder", abstract: "Create a folder; prints its id.")
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Argument(help: "The folder's name.") var name: String

    func run() async throws { try await options.run(parent: parent.options) { try await $0.addFolder(name: name) } }
}

struct DeleteFolder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-folder", abstract: "Delete a folder and its notes.")
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Argument(help: "The folder's name.") var name: String

    func run() async throws { try await options.run(parent: parent.options) { try await $0.deleteFolder(name: name) } }
}

struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a note; prints its id as the last line.")
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Option(help: "The folder's name (default: \"My Notes\", created when missing).") var folder: String?
    @Argument(help: "The note's text.") var text: String

    func run() async throws { try await options.run(parent: parent.options) { try await $0.add(text: text, folderName: folder) } }
}

struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Replace a note's text.")
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Argument(help: "The note's id.") var id: String
    @Argument(help: "The new text.") var text: String

    func run() async throws { try await options.run(parent: parent.options) { try await $0.edit(id: id, text: text) } }
}

struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a note.")
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Argument(help: "The note's id.") var id: String

    func run() async throws { try await options.run(parent: parent.options) { try await $0.delete(id: id) } }
}

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List notes, oldest first: one folder's, or every folder's merged in one list.",
        discussion: "Each line is the note's id, its folder's name and its title, least recently modified first.")
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Option(help: "Only this folder's notes.") var folder: String?
    @Flag(help: "Print a JSON array of {id, folderID, title, content, createdAt, modifiedAt}.") var json = false

    func run() async throws {
        try await options.run(parent: parent.options, readOnly: true) { try await $0.list(folderName: folder, json: json) }
    }
}

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sync this store with another: send its changes, receive the other's, merge conflicts.",
        discussion: """
            The remote is a store directory that several notes stores sync through (created when \
            missing), as devices sync through a server — or a database on a recordlog-server: its \
            URL with --database and the database's token (--token, else $RECORDLOG_TOKEN). Changes \
            made since the last sync are sent once, even if a sync is interrupted; an edit made on \
            both sides is merged field by field. A token the server refuses exits 1 and changes \
            nothing here.

            Examples (two stores, one hub; then one server):
              notes --store A add "From A"; notes --store A sync --remote HUB
              notes --store B sync --remote HUB; notes --store B list
              notes sync --remote http://127.0.0.1:8080 --database notes --token TOKEN
            """)
    @OptionGroup var options: StoreOptions
    @ParentCommand var parent: NotesCommand
    @Option(help: "The store directory, or the server URL (http://HOST:PORT), to sync with.") var remote: String
    @Option(help: "With a server URL: the database's name.") var database: String?
    // Unconditional: a token issued before tokens had their prefix may start with "-".
    @Option(parsing: .unconditional, help: "With a server URL: the database's token (default: $RECORDLOG_TOKEN).") var token: String?

    func validate() throws {
        do {
            _ = try NotesRemote.resolve(remote: remote, database: database, token: token, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        switch try NotesRemote.resolve(remote: remote, database: database, token: token, environment: ProcessInfo.processInfo.environment) {
        case .directory(let directory):
            try await options.run(parent: parent.options) { app in
                let hub = try await Database(directory: directory)
                do {
                    let output = try await app.sync(with: hub)
                    try hub.close()
                    return output
                } catch {
                    try? hub.close()
                    throw error
                }
            }
        case .server(let url, let database, let token):
            let server = HTTPRemoteDatabase(url: url, database: database, token: token)
            // Asked before the local store is opened (or created): a refused token or an
            // unreachable server changes nothing here.
            do {
                _ = try await server.allRecordZones()
            } catch let error as HTTPRemoteDatabaseError {
                let what = [.authenticationFailed, .accessDenied].contains(error.kind)
                    ? "the server refused the token for database \(database.debugDescription)" : "cannot sync with \(url.absoluteString)"
                FileHandle.standardError.write(Data("notes: \(what): \(error)\n".utf8))
                throw ExitCode(1)
            }
            try await options.run(parent: parent.options) { app in try await app.sync(with: server) }
        }
    }
}
