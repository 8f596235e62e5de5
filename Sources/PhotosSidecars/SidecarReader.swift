/// The user state in a parsed sidecar, from the library's properties and other tools' for the same facts.
enum SidecarReader {
    static func state(of tree: XMPTree) -> SidecarState {
        let own = XMPNamespace.photosd
        var state = SidecarState()
        state.localIdentifier = tree.value(own, "LocalIdentifier")
        state.rating =
            tree.value(XMPNamespace.xmp, "Rating").flatMap(XMPValues.rating(from:))
            ?? tree.value(XMPNamespace.microsoftPhoto, "Rating").flatMap(XMPValues.rating(fromPercent:))
        // The library writes both; where they disagree another tool changed fstop:favorite.
        state.isFavorite =
            tree.value(XMPNamespace.fstop, "favorite").flatMap(XMPValues.bool(from:))
            ?? tree.value(own, "Favorite").flatMap(XMPValues.bool(from:))
        state.isHidden = tree.value(own, "Hidden").flatMap(XMPValues.bool(from:))
        state.creationDate =
            tree.value(XMPNamespace.exif, "DateTimeOriginal").flatMap(XMPValues.date(from:))
            ?? tree.value(XMPNamespace.photoshop, "DateCreated").flatMap(XMPValues.date(from:))
        state.location = location(in: tree)
        var index = 1
        while tree.has(own, "Albums[\(index)]") {
            let prefix = "Albums[\(index)]/\(XMPNamespace.photosdPrefix):"
            if let identifier = tree.value(own, prefix + "Identifier"), !identifier.isEmpty {
                state.albums.insert(SidecarAlbum(identifier: identifier, title: tree.value(own, prefix + "Title")))
            }
            index += 1
        }
        let pairPrefix = "Pair/\(XMPNamespace.photosdPrefix):"
        if let kind = tree.value(own, pairPrefix + "Kind"), let file = tree.value(own, pairPrefix + "File") {
            state.pair = SidecarPair(kind: SidecarPair.Kind(rawValue: kind), file: file)
        }
        let adjustmentPrefix = "Adjustment/\(XMPNamespace.photosdPrefix):"
        if let format = tree.value(own, adjustmentPrefix + "FormatIdentifier"),
            let version = tree.value(own, adjustmentPrefix + "FormatVersion"),
            let data = tree.value(own, adjustmentPrefix + "Data")
        {
            state.adjustment = SidecarAdjustment(formatIdentifier: format, formatVersion: version, data: data)
        }
        return state
    }

    private static func location(in tree: XMPTree) -> SidecarLocation? {
        guard
            let latitude = tree.value(XMPNamespace.exif, "GPSLatitude").flatMap({
                XMPValues.coordinateUnits(from: $0, isLatitude: true)
            }),
            let longitude = tree.value(XMPNamespace.exif, "GPSLongitude").flatMap({
                XMPValues.coordinateUnits(from: $0, isLatitude: false)
            })
        else { return nil }
        var altitude = tree.value(XMPNamespace.exif, "GPSAltitude").flatMap(XMPValues.altitudeCentimetres(from:))
        if let magnitude = altitude, tree.value(XMPNamespace.exif, "GPSAltitudeRef")?.trimmingSpaces == "1" {
            altitude = -abs(magnitude)
        }
        return SidecarLocation(latitudeUnits: latitude, longitudeUnits: longitude, altitudeCentimetres: altitude)
    }
}
