import PhotosConfig
import Testing

@testable import PhotosDaemon

/// A reload that changes the watched imports says they need a restart.
struct ImportReloadTests {
    @Test func aChangedImportIsNamedAmongTheKeysThatNeedARestart() throws {
        let roots = "roots = [{ path = \"/p\", write = \"files\" }]\n"
        let before = try ConfigFile.parse(roots + "[[imports]]\nfrom = \"/drop\"\nto = \"/p\"\n")
        let after = try ConfigFile.parse(roots + "[[imports]]\nfrom = \"/drop\"\nto = \"/p\"\nname = \"{counter:4}\"\n")
        #expect(ConfigReloader.startupKeys(from: before, to: after) == ["imports"])
        #expect(ConfigReloader.startupKeys(from: before, to: before).isEmpty)
    }
}
