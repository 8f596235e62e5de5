import PhotosWire

extension API.RejectedFile {
    /// The wire description of a rejected file: what `photos rejected --json` and `GET /v1/rejected`
    /// write.
    public init(_ file: RejectedFile) {
        self.init(path: file.path, code: file.code, reason: file.reason)
    }
}
