import Testing

@testable import PhotosWire

@Suite struct PhotosWireTests {
    @Test func moduleLinks() {
        #expect(String(describing: PhotosWire.self) == "PhotosWire")
    }
}
