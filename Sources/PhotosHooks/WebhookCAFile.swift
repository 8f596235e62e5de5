import PhotosClient

/// The certificate authorities an https webhook trusts instead of the system's (`ca_file`): a
/// PEM file of one or more CA certificates, for a server whose certificate a private CA signed (a
/// home server, a self-signed certificate, a test). The server's name is checked all the same.
///
/// The file is checked when the configuration is read (OpenSSL must load a certificate out of
/// it) and loaded again at each POST, so a renewed file counts without a restart.
///
/// ```swift
/// let ca = try WebhookCAFile("/etc/photosd/home-ca.pem")
/// ```
public struct WebhookCAFile: Sendable, Hashable, CustomStringConvertible {
    /// The file, as given (an absolute path once the config reader has resolved it).
    public let path: String

    /// Checks that OpenSSL loads a certificate out of the file at `path`.
    public init(_ path: String) throws(WebhookURL.Problem) {
        do {
            try APIConnection.TLS.checkCAFile(path)
        } catch {
            throw WebhookURL.Problem(description: error.description)
        }
        self.path = path
    }

    public var description: String { path }
}
