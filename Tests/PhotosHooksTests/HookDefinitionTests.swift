import PhotosCore
import Testing

@testable import PhotosHooks

@Suite struct HookDefinitionTests {
    @Test func defaultsTellEverything() {
        let hook = HookDefinition(name: "log", command: ["/bin/cat"])
        #expect(hook.objects == [.asset, .assetCollection, .collectionList])
        #expect(hook.changes == [.inserted, .updated, .deleted])
        #expect(hook.batch == 500 && hook.settle == .zero && hook.timeout == .seconds(60))
    }
}
