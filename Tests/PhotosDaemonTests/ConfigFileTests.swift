import PhotosDaemon
import Testing

@Suite struct ConfigFileTests {
    @Test func readsEveryKey() throws {
        let config = try ConfigFile.parse("""
            # photosd
            library = "/srv/photos/library.sqlite"   # where the library lives
            roots = [
                "/home/me/Pictures",
                '/mnt/camera # not a comment',
            ]
            ignore = ["*.xmp", "@eaDir"]
            settle_ms = 1_000
            poll_interval_s = 120
            time_zone = "Europe/Paris"
            """)
        #expect(config.library == "/srv/photos/library.sqlite")
        #expect(config.roots == ["/home/me/Pictures", "/mnt/camera # not a comment"])
        #expect(config.ignore == ["*.xmp", "@eaDir"])
        #expect(config.settleMilliseconds == 1000 && config.pollIntervalSeconds == 120)
        #expect(config.timeZone == "Europe/Paris")
    }

    static let rejected: [(String, String)] = [
        ("colour = \"red\"", "config.toml:1: unknown key 'colour'"),
        ("roots = \"/home\"", "config.toml:1: 'roots' must be an array of strings"),
        ("settle_ms = -5", "config.toml:1: 'settle_ms' must be a whole number"),
        ("time_zone = \"Mars/Olympus\"", "config.toml:1: 'time_zone' must be a time zone identifier"),
        ("\n\nlibrary", "config.toml:3: expected key = value"),
        ("roots = [\"/a\",", "config.toml:1: unterminated array for 'roots'"),
        ("library = \"/a", "config.toml:1: unterminated string"),
        ("roots = [1, 2]", "config.toml:1: arrays hold quoted strings only"),
    ]

    @Test(arguments: rejected)
    func problemsNameTheLine(text: String, message: String) {
        do {
            _ = try ConfigFile.parse(text)
            Issue.record("\(text) should be rejected")
        } catch {
            #expect(String(describing: error).hasPrefix(message), "\(error)")
        }
    }

    @Test func defaultPathFollowsXDG() {
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/photosd/config.toml")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/photosd/config.toml")
    }
}
