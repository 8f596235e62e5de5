/// The XMP namespaces sidecars are read and written with, and the properties the library owns.
///
/// The library's own namespace is `http://ns.photosd.org/xmp/1.0/`, prefix `photosd`: a name, not an
/// address (it need not resolve), fixed for good, since every sidecar written carries it.
public enum XMPNamespace {
    /// The library's own properties: identifier, favorite, hidden, albums, pair, adjustment data.
    public static let photosd = "http://ns.photosd.org/xmp/1.0/"
    /// The prefix written for ``photosd``.
    public static let photosdPrefix = "photosd"
    /// XMP basic (`xmp:Rating`), historically `xap`.
    public static let xmp = "http://ns.adobe.com/xap/1.0/"
    /// EXIF in XMP (`exif:DateTimeOriginal`, `exif:GPSLatitude`, ...).
    public static let exif = "http://ns.adobe.com/exif/1.0/"
    /// F-Stop's namespace, whose `fstop:favorite` PhotoPrism reads as a favorite.
    public static let fstop = "http://www.fstopapp.com/xmp/"
    /// Photoshop's (`photoshop:DateCreated`, `photoshop:SidecarForExtension`).
    public static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    /// Windows Photo Gallery's, where digiKam also writes a rating (0, 1, 25, 50, 75, 99).
    public static let microsoftPhoto = "http://ns.microsoft.com/photo/1.0/"
    /// RDF's.
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// XML's own (`xml:lang`), bound to the `xml` prefix without a declaration.
    static let xml = "http://www.w3.org/XML/1998/namespace"

    /// The top-level properties outside ``photosd`` that the library writes, and so owns: a write
    /// replaces them and nothing else (every property of the ``photosd`` namespace is owned too).
    public static let ownedProperties: [(namespace: String, name: String)] = [
        (xmp, "Rating"), (exif, "DateTimeOriginal"), (exif, "GPSLatitude"), (exif, "GPSLongitude"),
        (exif, "GPSAltitude"), (exif, "GPSAltitudeRef"), (fstop, "favorite"),
    ]

    /// Whether the top-level property `name` of `namespace` is the library's.
    public static func isOwned(namespace: String, name: String) -> Bool {
        namespace == photosd || ownedProperties.contains { $0.namespace == namespace && $0.name == name }
    }
}
