import ArgumentParser
import Foundation
import Photos
import PhotosStore
import PhotosWire

extension PhotosCommand {
    /// `photos token`: bearer tokens for photosd's API, at one of PhotoKit's access levels.
    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Make, list and revoke the bearer tokens of photosd's API.",
            discussion: """
                The socket's owner needs no token. Other users, TCP clients (photosd --listen) and \
                hooks send `Authorization: Bearer TOKEN`. A token's level is PhotoKit's: read-write; \
                read-only (never writes); add-only (creates assets and albums, reads nothing); limited \
                (sees and changes only the assets of the albums it names). The library keeps only each \
                token's SHA-256; the token itself is printed once, by `create`.
                """,
            subcommands: [Create.self, List.self, Revoke.self], defaultSubcommand: List.self)
    }
}

extension PhotosCommand.Token {
    /// `photos token create`.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a token; prints it as the last word of its output (shown only this once).")

        @OptionGroup var options: LibraryOptions

        @Option(help: ArgumentHelp("read-write, read-only, add-only or limited.", valueName: "level"))
        var access: String

        @Option(
            name: .customLong("album"),
            help: ArgumentHelp(
                "An album a limited token sees (its identifier or a unique prefix, or the directory it mirrors). Repeatable.",
                valueName: "id"))
        var albums: [String] = []

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "How long it lasts: 30d, 12h, 15m, 90s, 2w (default: until revoked).", valueName: "duration"))
        var expires: String?

        @Option(help: ArgumentHelp("A name to tell it by.", valueName: "text"))
        var name: String?

        func validate() throws {
            guard let level = AccessLevel(rawValue: access) else {
                throw ValidationError("--access must be read-write, read-only, add-only or limited, not '\(access)'")
            }
            if level == .limited, albums.isEmpty { throw ValidationError("a limited token names at least one --album") }
            if level != .limited, !albums.isEmpty { throw ValidationError("--album is for limited tokens only") }
            if let expires, Duration.seconds(expires) == nil {
                throw ValidationError(
                    "--expires must be a number with s, m, h, d or w (30d, 12h), at most 100 years, not '\(expires)'")
            }
        }

        func run() throws {
            let level = AccessLevel(rawValue: access)!
            let library = try options.open()
            let database = library.database
            var identifiers: [String] = []
            if !albums.isEmpty {
                // Each as every command reads an album (a prefix too); the store then checks each is an album.
                let resolver = ObjectResolver(.library(library))
                let checked = try database.limitedTokenAlbums(try albums.map { try resolver.album($0) })
                if let refusal = checked.refusal { throw CLIError(refusal) }
                identifiers = checked.identifiers
            }
            let expiry = expires.flatMap(Duration.seconds).map { Date().addingTimeInterval($0) }
            let (token, secret) = try database.createAccessToken(
                level: level, albums: identifiers, name: name, expiresAt: expiry)
            if options.json {
                try Output.jsonLine(API.CreatedToken(token: secret, stored: API.TokenDescription(token)))
            } else {
                let until = token.expiresAt.map {
                    " until \(ISO8601.string(Date(timeIntervalSince1970: $0), offset: 0))"
                }
                print("token \(token.id) (\(level.rawValue)\(until ?? "")): \(secret)")
            }
        }
    }

    /// `photos token list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the tokens (never their secrets).")

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let tokens = try options.open().database.accessTokens().map { API.TokenDescription($0) }
            if options.json {
                for token in tokens { try Output.jsonLine(token) }
                return
            }
            Output.table(
                ["ID", "NAME", "ACCESS", "ALBUMS", "CREATED", "EXPIRES", "LAST USED"],
                tokens.map { token in
                    [
                        token.id, token.name ?? token.owner ?? "-", token.access,
                        token.albums.isEmpty ? "-" : token.albums.joined(separator: ","), token.created,
                        (token.expires ?? "never") + (token.expired ? " (expired)" : ""), token.lastUsed ?? "never",
                    ]
                })
        }
    }

    /// `photos token revoke`.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Revoke a token: it stops working at once.")

        @OptionGroup var options: LibraryOptions

        @Argument(help: ArgumentHelp("The token's id (see `photos token list`).", valueName: "id"))
        var id: String

        func run() throws {
            do {
                try options.open().database.revokeAccessToken(id)
            } catch let error as StoreError where error.code == .notFound {
                throw CLIError(error.message)
            }
            if options.json {
                try Output.jsonLine(["revoked": id])
            } else {
                print("revoked \(id)")
            }
        }
    }
}

extension Duration {
    /// Seconds in `30d`, `12h`, `15m`, `90s`, `2w`, at most ``longestExpiry``; nil for anything else.
    static func seconds(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count > 0,
            count.isFinite, count * unit <= longestExpiry
        else { return nil }
        return count * unit
    }

    /// The longest a token may last: 100 years (a date past it is no date a token means).
    static let longestExpiry: TimeInterval = 100 * 365.25 * 86400
}
