import Foundation

/// The path of the executable `name` on the PATH, or nil.
public func executableOnPath(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A certificate authority made for one test, and the server certificates it signs, with the
/// `openssl` command line in a temporary directory: what an https webhook's server shows in the
/// tests. Nothing here is trusted by the system; a client trusts it by loading ``authority``.
///
/// ```swift
/// let certificates = try TestCertificates()
/// let localhost = try certificates.server(names: ["localhost"], addresses: ["127.0.0.1"])
/// // serve with localhost.certificate and localhost.key; trust certificates.authority
/// ```
public struct TestCertificates: Sendable {
    /// `openssl` on the PATH (scripts/setup installs it).
    public static let openssl = executableOnPath("openssl")

    /// A server's certificate and its private key, PEM files.
    public struct Server: Sendable {
        /// The certificate, signed by the test authority.
        public let certificate: URL
        /// Its private key.
        public let key: URL
    }

    private let directory: TemporaryDirectory
    /// The authority's certificate (PEM): the file a `ca_file` names.
    public var authority: URL { directory.path("ca.pem") }

    /// Makes a new authority (an EC P-256 key, valid for two days), named `name`.
    public init(name: String = "photosd test CA") throws {
        directory = try TemporaryDirectory(prefix: "test-ca")
        try Data(
            """
            [req]
            distinguished_name = dn
            prompt = no
            [dn]
            CN = \(name)
            [authority]
            basicConstraints = critical,CA:TRUE
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash

            """.utf8
        ).write(to: directory.path("openssl.cnf"))
        try Self.openssl(
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ca.key"], in: directory.url)
        try Self.openssl(
            [
                "req", "-x509", "-new", "-key", "ca.key", "-config", "openssl.cnf", "-extensions", "authority", "-days",
                "2",
                "-out", "ca.pem",
            ], in: directory.url)
    }

    /// A server certificate this authority signs for DNS `names` and IP `addresses` (its subject
    /// alternative names: what a client checks the host against).
    public func server(names: [String], addresses: [String] = []) throws -> Server {
        let base = (names.first ?? addresses.first ?? "server").replacingOccurrences(of: ":", with: "_")
        let alternatives = (names.map { "DNS:\($0)" } + addresses.map { "IP:\($0)" }).joined(separator: ",")
        try Data(
            """
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = \(alternatives)
            authorityKeyIdentifier = keyid

            """.utf8
        ).write(to: directory.path("\(base).cnf"))
        try Self.openssl(
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "\(base).key"],
            in: directory.url)
        try Self.openssl(
            [
                "req", "-new", "-key", "\(base).key", "-subj", "/CN=\(base)", "-config", "openssl.cnf", "-out",
                "\(base).csr",
            ],
            in: directory.url)
        try Self.openssl(
            [
                "x509", "-req", "-in", "\(base).csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-set_serial", "\(UInt32.random(in: 2...UInt32.max))", "-days", "2", "-extfile", "\(base).cnf",
                "-out", "\(base).pem",
            ], in: directory.url)
        return Server(certificate: directory.path("\(base).pem"), key: directory.path("\(base).key"))
    }

    /// A self-signed server certificate for DNS `name` (not a CA: `CA:FALSE`), signed by its own
    /// key, not this authority: what a home server often shows. Its certificate is its own `ca_file`.
    public func selfSigned(name: String) throws -> Server {
        let base = "self-signed-\(name)"
        try Data(
            """
            [req]
            distinguished_name = dn
            prompt = no
            [dn]
            CN = \(name)
            [leaf]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:\(name)

            """.utf8
        ).write(to: directory.path("\(base).cnf"))
        try Self.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "\(base).key",
                "-out", "\(base).pem", "-days", "2", "-config", "\(base).cnf", "-extensions", "leaf",
            ], in: directory.url)
        return Server(certificate: directory.path("\(base).pem"), key: directory.path("\(base).key"))
    }

    /// Runs `openssl` in `directory`; its standard error becomes the error when it fails.
    private static func openssl(_ arguments: [String], in directory: URL) throws {
        guard let openssl else { throw CocoaError(.executableNotLoadable, userInfo: [NSFilePathErrorKey: "openssl"]) }
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [
                    NSLocalizedDescriptionKey: "openssl \(arguments.joined(separator: " ")): "
                        + String(decoding: message, as: UTF8.self)
                ])
        }
    }
}
