extension API {
    /// A file that looks like a photo or a video but could not be read: a line of `photos rejected
    /// --json`, an element of `GET /v1/rejected`.
    ///
    /// ```json
    /// {"code": "truncated", "path": "/home/me/Pictures/IMG_2.JPG",
    ///  "reason": "JPEG ends inside the scan data: no EOI marker"}
    /// ```
    public struct RejectedFile: Sendable, Codable, Hashable {
        /// The file's absolute path; in a library several hosts share, another host's named by it
        /// (`nas:/srv/photos/bad.jpg`).
        public var path: String
        /// What kind of failure, as a word (`truncated`, `corrupt`, `notMedia`, `empty`, ...).
        public var code: String
        /// What is wrong, for people.
        public var reason: String

        /// A rejected file with every value given.
        public init(path: String, code: String, reason: String) {
            self.path = path
            self.code = code
            self.reason = reason
        }
    }

    /// `GET /v1/rejected`: the rejected files by path, a window of them, and how many there are.
    public struct RejectedListing: Sendable, Codable, Hashable {
        /// The files of the window asked for (`offset`, `limit`), by path.
        public var files: [RejectedFile]
        /// How many rejected files the library holds in all.
        public var total: Int

        /// A listing of these files, out of `total`.
        public init(files: [RejectedFile], total: Int) {
            self.files = files
            self.total = total
        }
    }
}
