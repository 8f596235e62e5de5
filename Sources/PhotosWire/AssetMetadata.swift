extension API {
    /// `GET /v1/assets/{id}/metadata`: the camera, lens and exposure read from the asset's file,
    /// which the library's rows do not keep (they keep make and model).
    ///
    /// ```json
    /// {"camera": {"exposureBias": 0, "exposureTime": 0.013333333333333334, "exposureTimeText": "1/75",
    ///             "fNumber": 5.9, "flash": 16, "flashFired": false, "focalLength": 24, "focalLengthIn35mm": 112,
    ///             "isoSpeed": 64, "make": "NIKON", "model": "COOLPIX P6000", "software": "Nikon Transfer 1.1 W"},
    ///  "localIdentifier": "3F2C…/L0/001", "path": "/photos/DSCN0010.jpg"}
    /// ```
    public struct AssetMetadata: Sendable, Codable, Hashable {
        /// What the file states of its camera and exposure; a key the file does not state is absent.
        public struct Camera: Sendable, Codable, Hashable {
            /// The camera maker (EXIF `Make`).
            public var make: String?
            /// The camera model (EXIF `Model`).
            public var model: String?
            /// The lens maker (EXIF `LensMake`).
            public var lensMake: String?
            /// The lens (EXIF `LensModel`).
            public var lensModel: String?
            /// The program that wrote the file (EXIF `Software`).
            public var software: String?
            /// The exposure time in seconds (EXIF `ExposureTime`).
            public var exposureTime: Double?
            /// The exposure time as photographers write it: `1/250`, `0.5`, `2`.
            public var exposureTimeText: String?
            /// The aperture's f-number: `2.8` for f/2.8.
            public var fNumber: Double?
            /// The ISO sensitivity.
            public var isoSpeed: Int?
            /// The focal length in millimetres.
            public var focalLength: Double?
            /// The 35 mm film equivalent focal length in millimetres.
            public var focalLengthIn35mm: Int?
            /// EXIF `Flash` as stored (a bit field; bit 0 is "fired").
            public var flash: Int?
            /// Whether the flash fired.
            public var flashFired: Bool?
            /// The exposure bias in EV.
            public var exposureBias: Double?

            /// A camera with no field known.
            public init() {}
        }

        /// The asset's identifier.
        public var localIdentifier: String
        /// The file read: the asset's first resource.
        public var path: String
        /// What the file states; empty when it states nothing.
        public var camera: Camera
        /// The place the photo was taken, named after the nearest place of the gazetteer (as an
        /// album's `localizedLocationNames`); absent without a location or a gazetteer.
        public var placeNames: [String]?
        /// The place names of each album the asset is in, by the album's local identifier (its
        /// `localizedLocationNames`); absent when none has any.
        public var albumPlaceNames: [String: [String]]?

        /// An answer with every value given.
        public init(
            localIdentifier: String, path: String, camera: Camera, placeNames: [String]? = nil,
            albumPlaceNames: [String: [String]]? = nil
        ) {
            self.localIdentifier = localIdentifier
            self.path = path
            self.camera = camera
            self.placeNames = placeNames
            self.albumPlaceNames = albumPlaceNames
        }
    }
}
