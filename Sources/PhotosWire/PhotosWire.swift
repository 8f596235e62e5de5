/// The JSON shapes other programs read: the CLI's `--json` output, hook payloads, the daemon's
/// status, and later the socket API. One home for each shape, shared by everything that writes it
/// and by the tests that read it.
public enum PhotosWire {}
