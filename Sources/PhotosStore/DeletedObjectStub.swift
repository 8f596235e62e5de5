import PhotosCore

// TEMPORARY until the changelog branch lands: the agreed API, answering nothing.
public struct DeletedObject: Sendable, Hashable, Codable {
    public struct Resource: Sendable, Hashable, Codable {
        public var type: String
        public var path: String
    }
    public var localIdentifier: String
    public var objectType: PHObjectType
    public var mediaType: String?
    public var title: String?
    public var path: String?
    public var resources: [Resource]
    public var token: Int64
}

extension LibraryDatabase {
    public func deletedObjects(localIdentifiers: [String]) throws -> [String: DeletedObject] { [:] }
}
