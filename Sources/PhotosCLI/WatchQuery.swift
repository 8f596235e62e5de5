import ArgumentParser
import Foundation
import PhotosConfig
import PhotosClient
import PhotosWire

extension PhotosCommand {
    /// `photos watch-query`: a live query through the daemon's socket; prints the result, then each
    /// change to it as PhotoKit's change details.
    struct WatchQuery: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch-query",
            abstract:
                "Fetch assets, albums or folders through photosd, then print each change to the result as it happens.",
            discussion: """
                Asks the running photosd (POST /v1/queries on its socket) and keeps the answer open. Lines \
                are tab-separated, each starting with the change token:
                  TOKEN  result    INDEX  IDENTIFIER  FILE     the initial result (and after a reset)
                  TOKEN  removed   INDEX                      positions before the change
                  TOKEN  inserted  INDEX  IDENTIFIER  FILE    positions after it
                  TOKEN  moved     FROM   TO
                  TOKEN  changed   INDEX  IDENTIFIER  FILE
                  TOKEN  count     N                          the result's size, after each record
                With --albums or --folders the query follows albums (regular ones then smart ones, as \
                `photos albums` lists them, or those of --type) or folders, and IDENTIFIER is followed \
                by the TITLE instead of a FILE. \
                Applied in that order, they keep a copy equal to a fresh fetch. --json prints the \
                stream's records as they come (the API's NDJSON). Ends on SIGINT or SIGTERM, or when \
                photosd stops.
                """)

        @Option(
            help: ArgumentHelp(
                "photosd's socket (default: the config's socket, else $XDG_RUNTIME_DIR/photosd.sock).",
                valueName: "path"))
        var socket: String?

        @Option(
            help: ArgumentHelp(
                "photosd's config file, for its socket (default: $XDG_CONFIG_HOME/photosd/config.toml).",
                valueName: "file"))
        var config: String?

        @Option(
            help: ArgumentHelp(
                "A token for a photosd whose socket is not yours (default: $PHOTOS_TOKEN).", valueName: "token"))
        var token: String?

        @OptionGroup var owner: SocketOwnerOption

        @OptionGroup var query: QueryOptions

        @Flag(help: "Follow albums instead of assets (with --predicate, --sort, --limit, --type).")
        var albums = false

        @Flag(help: "Follow folders instead of assets (with --predicate, --sort, --limit).")
        var folders = false

        @Option(help: ArgumentHelp("With --albums: only album or only smartAlbum (default: both).", valueName: "type"))
        var type: String?

        @Flag(help: "Print the stream's JSON records, one per line.")
        var json = false

        func validate() throws {
            guard !(albums && folders) else { throw ValidationError("--albums and --folders: give one") }
            if albums || folders, query.includeHidden || query.includeAllBursts || query.album != nil {
                throw ValidationError("--include-hidden, --include-all-bursts and --album are for assets")
            }
            if type != nil, !albums { throw ValidationError("--type goes with --albums") }
        }

        /// The fetch options as the API takes them, `--album` resolved to the identifier `album`.
        func body(album: String?) -> [UInt8] {
            var options = query.liveQueryFields(album: album)
            if albums {
                options["of"] = "albums"
                if let type { options["type"] = type }
            }
            if folders { options["of"] = "folders" }
            return [UInt8](
                (try? JSONSerialization.data(withJSONObject: options, options: [.sortedKeys])) ?? Data("{}".utf8))
        }

        func run() throws {
            unblockTerminationSignals()
            let path: String
            do {
                path = try socket ?? DaemonOptions.usualSocket(ConfigFile.load(named: config).file)
            } catch {
                throw CLIError("\(error)")
            }
            let connection: APIConnection
            let head: (status: Int, headers: [String: String])
            do {
                let resolved = try query.album.map {
                    try ObjectResolver(
                        .daemon(
                            DaemonSource(
                                socket: path, authorization: DaemonOptions.authorization(token),
                                peers: owner.trustedPeers()))
                    ).album($0)
                }
                // No read timeout: a query may see no change for hours.
                connection = try APIConnection(
                    socket: path, timeout: nil, trusting: owner.trustedPeers())
                head = try connection.send(
                    "POST", "/v1/queries",
                    headers: DaemonOptions.authorization(token).merging(["Content-Type": "application/json"]) { $1 },
                    body: body(album: resolved))
            } catch let error as APIConnection.ConnectionError where error.notListening {
                throw CLIError("photosd is not running on \(path) (start it, or pass --socket)")
            } catch let error as APIConnection.ConnectionError {
                throw CLIError(error.description)
            }
            guard head.status == 200 else {
                let reply = APIConnection.Reply(
                    status: head.status, headers: head.headers, body: try connection.readAll())
                throw CLIError(reply.errorMessage)
            }
            let decoder = JSONDecoder()
            while let line = try connection.nextLine() {
                if line.isEmpty { continue }
                if json {
                    print(line)
                } else {
                    let record = try decoder.decode(API.LiveQueryRecord.self, from: Data(line.utf8))
                    if let error = record.error { throw CLIError(error.message) }
                    Self.printRecord(record)
                }
                // A reader at the other end of a pipe sees each record as it comes (nil: every stream).
                fflush(nil)
            }
        }

        /// A record as the lines the discussion lists.
        static func printRecord(_ record: API.LiveQueryRecord) {
            func placed(_ kind: String, _ token: Int64, _ index: Int, _ asset: AssetDescription?) {
                let file = asset?.resources.first?.path ?? "-"
                Swift.print("\(token)\t\(kind)\t\(index)\t\(asset?.localIdentifier ?? "-")\t\(Output.escaped(file))")
            }
            func placed(_ kind: String, _ token: Int64, _ index: Int, _ collection: CollectionDescription?) {
                let title = collection?.localizedTitle ?? "-"
                Swift.print(
                    "\(token)\t\(kind)\t\(index)\t\(collection?.localIdentifier ?? "-")\t\(Output.escaped(title))")
            }
            func listing(_ listing: API.LiveQueryRecord.Listing, _ token: Int64) {
                if let collections = listing.albums ?? listing.folders {
                    for (index, collection) in collections.enumerated() { placed("result", token, index, collection) }
                } else {
                    for (index, asset) in listing.assets.enumerated() { placed("result", token, index, asset) }
                }
                Swift.print("\(token)\tcount\t\(listing.count)")
            }
            func item(_ kind: String, _ token: Int64, _ item: API.LiveQueryRecord.Placed) {
                if let collection = item.album ?? item.folder {
                    placed(kind, token, item.index, collection)
                } else {
                    placed(kind, token, item.index, item.asset)
                }
            }
            if let initial = record.initial {
                listing(initial, initial.token ?? 0)
                return
            }
            guard let token = record.token else { return }
            if let reset = record.reset {
                listing(reset, token)
                return
            }
            for index in record.removed ?? [] { Swift.print("\(token)\tremoved\t\(index)") }
            for inserted in record.inserted ?? [] { item("inserted", token, inserted) }
            for move in record.moves ?? [] { Swift.print("\(token)\tmoved\t\(move.from)\t\(move.to)") }
            for changed in record.changed ?? [] { item("changed", token, changed) }
            if let count = record.count { Swift.print("\(token)\tcount\t\(count)") }
        }
    }
}
