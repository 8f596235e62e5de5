import ArgumentParser
import Foundation
import PhotosClient
import PhotosWire

/// `photos open`: asks the running photosd for a one-time login URL of its web page, prints it,
/// and opens it in the desktop's browser.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the library's web page in a browser, logged in with a new session.",
        discussion: """
            Asks the running photosd for a link that works once, within 5 minutes, and logs a browser in \
            with a session cookie of the access chosen (read-only by default). The link is printed, and \
            opened with xdg-open when there is a desktop. photosd serves the page on its loopback TCP \
            listener: set listen = "127.0.0.1:8421" in the config (or start it with --listen). The \
            session lasts --expires (30 days by default); photos token revoke ends it at once.
            """)

    @OptionGroup var options: LibraryOptions
    @OptionGroup var daemon: DaemonOptions

    @Option(help: ArgumentHelp("read-only (the default), read-write or limited.", valueName: "level"))
    var access = "read-only"

    @Option(
        name: .customLong("album"),
        help: ArgumentHelp(
            "An album a limited session sees (its identifier or a unique prefix, or the directory it mirrors). Repeatable.",
            valueName: "id"))
    var albums: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How long the session lasts: 30d, 12h, 2w (default 30d).", valueName: "duration"))
    var expires: String?

    @Flag(name: .customLong("no-browser"), help: "Print the link only; do not run xdg-open.")
    var noBrowser = false

    func validate() throws {
        if daemon.noDaemon {
            throw ValidationError("photos open asks photosd for the link: --no-daemon leaves nothing to ask")
        }
        guard ["read-only", "read-write", "limited"].contains(access) else {
            throw ValidationError("--access must be read-only, read-write or limited, not '\(access)'")
        }
        if access == "limited", albums.isEmpty { throw ValidationError("a limited session names at least one --album") }
        if access != "limited", !albums.isEmpty { throw ValidationError("--album is for limited sessions only") }
        if let expires, Duration.seconds(expires) == nil {
            throw ValidationError(
                "--expires must be a number with s, m, h, d or w (30d, 12h), at most 100 years, not '\(expires)'")
        }
    }

    func run() throws {
        guard let source = try daemon.daemon(for: options) else {
            throw CLIError(
                "photosd is not running on this library: photos open asks it for the link (start photosd, "
                    + "with listen = \"127.0.0.1:8421\" in its config)")
        }
        let resolver = ObjectResolver(.daemon(source))
        var request: [String: Any] = ["access": access, "albums": try albums.map { try resolver.album($0) }]
        if let seconds = expires.flatMap(Duration.seconds) { request["expiresIn"] = seconds }
        var headers = source.authorization
        headers["Content-Type"] = "application/json"
        let reply = try APIConnection.request(
            source.socket, "POST", "/v1/logins", headers: headers,
            body: Array(try JSONSerialization.data(withJSONObject: request)), trusting: source.peers)
        guard reply.status == 201 else { throw CLIError(reply.errorMessage) }
        let login = try JSONDecoder().decode(API.Login.self, from: Data(reply.body))
        if options.json {
            try Output.jsonLine(login)
        } else {
            print("a \(login.access) session until \(login.expiresAt) (token \(login.token)); this link works once:")
            print(login.url)
        }
        if !noBrowser, Self.hasDesktop() { Self.launch(["xdg-open", login.url]) }
    }

    /// Whether a graphical session is there to open a browser in.
    static func hasDesktop(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
    }

    /// Starts a program found on `PATH` and leaves it running; one that is missing is said, not fatal.
    static func launch(_ arguments: [String]) {
        var pid = pid_t()
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let started = posix_spawnp(&pid, arguments[0], nil, nil, argv, environ)
        if started != 0 {
            FileHandle.standardError.write(
                Data("photos: cannot run \(arguments[0]): \(String(cString: strerror(started)))\n".utf8))
        }
    }
}
