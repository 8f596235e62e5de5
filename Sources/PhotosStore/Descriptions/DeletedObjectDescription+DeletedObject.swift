import PhotosWire

extension DeletedObjectDescription {
    /// The description of a tombstone.
    public init(_ deleted: DeletedObject) {
        self.init(
            localIdentifier: deleted.localIdentifier, objectType: deleted.objectType, mediaType: deleted.mediaType,
            title: deleted.title, path: deleted.path,
            resources: deleted.resources.map { Resource(type: $0.type, path: $0.path) })
    }
}
