extension APIConnection {
    /// How an https connection decides to trust its server: the certificate chain must lead to a
    /// trusted authority (the system's store, or `caFile`'s alone), be valid now, and name
    /// `serverName`; the protocol is TLS 1.2 or newer.
    ///
    /// ```swift
    /// let tls = APIConnection.TLS(serverName: "photos.example.net")                  // the system's CAs
    /// let home = APIConnection.TLS(serverName: "nas.home", caFile: "/etc/photosd/home-ca.pem")
    /// ```
    public struct TLS: Sendable, Hashable {
        /// The name the certificate must be for: a DNS name (also sent as SNI) or an IP literal
        /// (matched against the certificate's IP addresses; no SNI, as RFC 6066 says).
        public var serverName: String
        /// A PEM file of the certificate authorities trusted instead of the system's; nil trusts
        /// the system's store (OpenSSL's default paths: Debian's `/etc/ssl/certs`).
        public var caFile: String?

        /// Trust for a server named `serverName`, by the system's authorities or `caFile`'s.
        public init(serverName: String, caFile: String? = nil) {
            self.serverName = serverName
            self.caFile = caFile
        }

        /// Checks that OpenSSL loads at least one certificate out of `caFile` (as a connection
        /// would), so that a wrong file is found when a configuration is read, not at each POST.
        public static func checkCAFile(_ caFile: String) throws(ConnectionError) {
            _ = try TLSSession.context(caFile: caFile)
        }
    }
}
