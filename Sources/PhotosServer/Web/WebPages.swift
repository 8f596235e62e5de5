import Foundation
import Hummingbird
import Mustache
import Photos
import PhotosCore
import PhotosWire

/// The web page's HTML: each page is its template inside the layout, rendered from what the
/// library says now, with the session's access.
///
/// The templates (`Web/Resources/templates`) are compiled into the binary by `scripts/web-embed`
/// (``WebResources``), so a photosd copied alone serves its page. Values reach the HTML through
/// Mustache's `{{…}}`, which escapes them; nothing the library holds (a file or album name) is
/// ever written unescaped.
struct WebPages: Sendable {
    let library: PHPhotoLibrary
    /// The daemon's status, for the health page (nil before it has one).
    let status: @Sendable () throws -> DaemonStatus?
    /// The startup crawl's progress while it runs.
    let startup: @Sendable () -> StartupProgress?

    /// The pages photosd serves.
    enum Page: Sendable, Equatable {
        case timeline, albums, search, health, trash
        case album(String)
        case asset(String)
    }

    /// Every template, by name, parsed once.
    static let templates: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in WebResources.templates {
            // A template that does not parse is a build mistake WebPageTests catches (``templateErrors``).
            if let template = try? MustacheTemplate(string: text) { library.register(template, named: name) }
        }
        return library
    }()

    /// Why each template that does not parse does not, by name: none, in a good build.
    static var templateErrors: [String: String] {
        WebResources.templates.compactMapValues { text in
            do {
                _ = try MustacheTemplate(string: text)
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    /// The page's HTML for a client of `access`.
    func render(_ page: Page, query: Query, access: ClientAccess) throws -> String {
        var values: [String: Any] = [:]
        let template: String
        let title: String
        switch page {
        case .timeline:
            (template, title) = ("timeline", "Timeline")
        case .albums:
            (template, title) = ("albums", "Albums")
            values = try albums(access)
        case .album(let identifier):
            let album = try self.album(identifier, access: access)
            (template, title) = ("album", album["title"] as? String ?? "Album")
            values = album
            // A smart album's title is PhotoKit's: it offers no rename.
            values["canChange"] = access.level == .readWrite && album["smart"] == nil
        case .asset(let identifier):
            try requireVisible(asset: identifier, access)
            (template, title) = ("asset", "Photo")
            values = ["identifier": identifier]
        case .search:
            (template, title) = ("search", "Search")
            values = SearchForm(query, timeZone: library.configuration.timeZone).values
        case .trash:
            (template, title) = ("trash", "Recently Deleted")
            values = try trash()
            values["canChange"] = access.level == .readWrite
        case .health:
            (template, title) = ("health", "Health")
            values = try health()
            values["canChange"] = access.level == .readWrite
        }
        let content = Self.templates.render(values, withTemplate: template) ?? ""
        let layout: [String: Any] = [
            "title": title, "content": content, "csrf": access.csrf ?? "", "access": access.level.rawValue,
            "canChange": access.level == .readWrite, "seesDaemon": !access.isLimited,
            "nav": [
                ["href": "/web", "label": "Timeline", "current": page == .timeline],
                ["href": "/web/albums", "label": "Albums", "current": page == .albums],
                ["href": "/web/search", "label": "Search", "current": page == .search],
            ]
                + (access.isLimited
                    ? []
                    : [
                        ["href": "/web/trash", "label": "Recently Deleted", "current": page == .trash],
                        ["href": "/web/health", "label": "Health", "current": page == .health],
                    ])
                ,
        ]
        return Self.templates.render(layout, withTemplate: "layout") ?? ""
    }

    /// A 401 page for a browser without a session: how to get one.
    static func signInNeeded(reason: String) -> Response {
        let html =
            templates.render(["reason": reason], withTemplate: "signin")
            ?? "photosd: open this page with photos open"
        var headers = WebRoutes.securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .unauthorized, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    // MARK: Albums and folders

    private func options() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }

    /// A 404 for an asset the library does not hold, or a limited client does not see (in none of
    /// its albums), as the album pages and the API answer: the page of a photo that is not there
    /// is not a page.
    private func requireVisible(asset identifier: String, _ access: ClientAccess) throws {
        let options = self.options()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: options).firstObject else {
            throw APIError(.notFound, "no asset \(identifier)")
        }
        guard access.isLimited else { return }
        let albums = PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: self.options())
        guard albums.contains(where: { access.albums.contains($0.localIdentifier) }) else {
            throw APIError(.notFound, "no asset \(identifier)")
        }
    }

    /// The folder tree as the disk and the user made it, the smart albums with their counts; for a
    /// limited client, its albums alone.
    private func albums(_ access: ClientAccess) throws -> [String: Any] {
        if access.isLimited {
            let albums = PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: access.albums, options: options())
            return ["tree": albums.map { treeNode($0) }, "limited": true]
        }
        let top = PHCollectionList.fetchTopLevelUserCollections(with: options())
        let smart = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: options())
        if let reason = library.unavailabilityReason { throw APIError.from(reason) }
        return [
            "tree": top.map { treeNode($0) },
            "smart": smart.map { album in
                ["id": album.localIdentifier, "title": album.localizedTitle ?? "", "count": count(of: album)]
            },
        ]
    }

    /// One collection of the tree, with its children (a folder's) or its count (an album's).
    private func treeNode(_ collection: PHCollection) -> [String: Any] {
        // Every key in every node: Mustache looks a missing one up in the enclosing node, which
        // would render a parent folder's children again, without end.
        var node: [String: Any] = [
            "id": collection.localIdentifier, "title": collection.localizedTitle ?? "",
            "path": collection.directoryPath ?? "", "folder": false, "children": [[String: Any]](), "count": 0,
        ]
        if let list = collection as? PHCollectionList {
            node["folder"] = true
            node["children"] = PHCollection.fetchCollections(in: list, options: options()).map { treeNode($0) }
        } else if let album = collection as? PHAssetCollection {
            node["count"] = count(of: album)
        }
        return node
    }

    private func count(of album: PHAssetCollection) -> Int {
        PHAsset.fetchAssets(in: album, options: options()).count
    }

    /// One album's page: its title, directory and count; a 404 for one the client does not see.
    private func album(_ identifier: String, access: ClientAccess) throws -> [String: Any] {
        if access.isLimited, !access.albums.contains(identifier) { throw APIError(.notFound, "no album \(identifier)") }
        guard
            let album = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: options())
                .firstObject
        else { throw APIError(.notFound, "no album \(identifier)") }
        // Mustache takes an empty string for true: a key is left out rather than empty.
        var values: [String: Any] = [
            "id": album.localIdentifier, "title": album.localizedTitle ?? "", "count": count(of: album),
        ]
        if let path = album.directoryPath { values["path"] = path }
        if album.assetCollectionType == .smartAlbum { values["smart"] = true }
        if !album.localizedLocationNames.isEmpty {
            values["places"] = album.localizedLocationNames.joined(separator: ", ")
        }
        return values
    }

    // MARK: Recently Deleted

    /// The deleted assets, newest deletion first: each file where it was, and where the Trash has it.
    private func trash() throws -> [String: Any] {
        let assets = try library.recentlyDeletedDescriptions()
        return [
            "assets": assets.map { asset in
                [
                    "id": asset.localIdentifier, "deleted": asset.deletionDate,
                    "name": (asset.files.first?.path as NSString?)?.lastPathComponent ?? asset.localIdentifier,
                    // Mustache takes an empty string for true: a key is left out rather than empty.
                    "files": asset.files.map { file in
                        file.trashPath.map { ["path": file.path, "trashPath": $0] } ?? ["path": file.path]
                    },
                ]
            },
            "empty": assets.isEmpty,
        ]
    }

    // MARK: Health

    /// How many rejected files the health page names; the rest are counted.
    static let rejectedShown = 100

    /// The daemon's roots, startup crawl, thumbnails and hooks, and the files it could not read.
    private func health() throws -> [String: Any] {
        var values = try daemonHealth()
        let rejected = try library.database.rejectedFiles(first: Self.rejectedShown)
        if !rejected.files.isEmpty {
            values["rejectedFiles"] = rejected.files.map { ["path": $0.path, "reason": $0.reason, "code": $0.code] }
            values["rejectedSummary"] =
                rejected.total == 1
                ? "1 file looks like a photo or a video but could not be read"
                : "\(rejected.total) files look like photos or videos but could not be read"
            values["hasRejected"] = true
            if rejected.total > rejected.files.count {
                values["rejectedMore"] = ["count": rejected.total - rejected.files.count]
            }
        }
        return values
    }

    /// The daemon's roots, startup crawl, thumbnails and hooks.
    private func daemonHealth() throws -> [String: Any] {
        guard var status = try status() else {
            let progress = startup()
            return ["starting": progress?.summary ?? "photosd has no status yet"]
        }
        status.addHooks(from: library.database)
        var values: [String: Any] = [
            "roots": status.roots.map { root in
                [
                    "path": root.path, "state": root.reason.map { "\(root.state): \($0)" } ?? root.state,
                    "stateClass": root.state,
                    "write": (root.write ?? "none") + (root.writeRestriction.map { " (\($0))" } ?? ""),
                ]
            },
            "watches": status.watches, "watchBudget": status.watchBudget, "queueDepth": status.queueDepth,
            "ingested": status.ingested, "rejected": status.rejected,
            "lastErrors": status.lastErrors, "hasErrors": !status.lastErrors.isEmpty,
            "hooks": (status.hooks ?? []).map { hook in
                [
                    "name": hook.name, "state": hook.state, "parked": hook.state == "parked",
                    "reason": hook.parkedReason ?? "", "lag": hook.lag ?? 0, "runs": hook.runs,
                    "failures": hook.failures, "lastRunAt": hook.lastRunAt ?? "never",
                ]
            },
        ]
        if let startup = status.startup { values["crawl"] = startup.summary }  // "startup crawl: …"
        if let thumbnails = status.thumbnails {
            values["thumbnails"] = [
                "sizes": thumbnails.sizes.map(String.init).joined(separator: ", "), "made": thumbnails.made,
                "kept": thumbnails.kept, "failed": thumbnails.failed,
                "atStart": "\(thumbnails.photosAtStartDone) of \(thumbnails.photosAtStart)",
            ]
        }
        return values
    }
}

/// The search page's form: the filters people use, turned into one PhotoKit predicate that the
/// page's grid fetches with and shows, so a person can learn the predicate and a URL keeps it.
struct SearchForm {
    var values: [String: Any] = [:]

    /// `timeZone`: the library's, in which the timeline's days of photos that state no offset are
    /// days (a day searched is the same day the timeline shows).
    init(_ query: Query, timeZone: TimeZone) {
        let text = { (name: String) in (query[name] ?? "").trimmingCharacters(in: .whitespaces) }
        let (type, name, camera, from, to, raw) = (
            text("type"), text("name"), text("camera"), text("from"), text("to"), text("predicate")
        )
        let favorites = (try? query.flag("favorites")) ?? false
        var terms: [String] = []
        var errors: [String] = []
        switch type {
        case "image", "video": terms.append("mediaType == \(type)")
        case "", "any": break
        default: errors.append("type must be image, video or any")
        }
        if favorites { terms.append("favorite == YES") }
        if !name.isEmpty { terms.append("filename CONTAINS[c] \(PhotoKitPredicate.stringLiteral(name))") }
        if !camera.isEmpty {
            terms.append(
                "(make CONTAINS[c] \(PhotoKitPredicate.stringLiteral(camera)) OR model CONTAINS[c] \(PhotoKitPredicate.stringLiteral(camera)))"
            )
        }
        for (field, text, op, days) in [("from", from, ">=", 0), ("to", to, "<", 1)] where !text.isEmpty {
            guard let date = Self.day(text, adding: days, in: timeZone) else {
                errors.append("\(field) must be a date written YYYY-MM-DD, not '\(text)'")
                continue
            }
            terms.append("creationDate \(op) CAST(\(PhotoKitPredicate.stringLiteral(date)), \"NSDate\")")
        }
        if !raw.isEmpty { terms.append("(\(raw))") }
        let predicate = terms.joined(separator: " AND ")
        if !raw.isEmpty || !terms.isEmpty {
            do {
                let options = PHFetchOptions()
                options.predicate = NSPredicate(format: predicate)
                try options.validate(for: .asset)
            } catch {
                errors.append("\(error)")
            }
        }
        let searched = !terms.isEmpty && errors.isEmpty
        values = [
            "name": name, "camera": camera, "from": from, "to": to, "predicate": raw, "favorites": favorites,
            "typeAny": type.isEmpty || type == "any", "typeImage": type == "image", "typeVideo": type == "video",
            "query": searched ? predicate : "", "searched": searched, "errors": errors,
        ]
    }

    /// Midnight starting `YYYY-MM-DD` plus `days`, in `timeZone` (the library's), as ISO 8601.
    static func day(_ text: String, adding days: Int, in timeZone: TimeZone) -> String? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard
            let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
            calendar.component(.day, from: start) == parts[2], calendar.component(.month, from: start) == parts[1],
            let date = calendar.date(byAdding: .day, value: days, to: start)
        else { return nil }
        return ISO8601.string(date, offset: timeZone.secondsFromGMT(for: date))
    }
}
