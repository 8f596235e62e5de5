import CPhotosTLS
import Glibc

/// One TLS client session over a connected socket: OpenSSL's `SSL` and its `SSL_CTX`, owned and
/// freed together. ``APIConnection`` reads and writes through it instead of the socket for https.
///
/// It blocks as the socket under it does: the socket's timeouts (SO_RCVTIMEO, SO_SNDTIMEO) end a
/// stalled handshake, read or write (OpenSSL reports them as WANT_READ or WANT_WRITE), and
/// `shutdown` on the socket from another thread (``APIConnection/Cancellation``) ends one at once.
/// Every call that may write runs with SIGPIPE blocked on its thread: OpenSSL writes with
/// `write`, not `send(MSG_NOSIGNAL)`, and a peer that has gone must be an error, not the signal
/// that ends the process.
final class TLSSession {
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    /// Set after a fatal error, when OpenSSL forbids `SSL_shutdown`.
    private var broken = false
    private var established = false

    /// A session on `descriptor` (connected, blocking) trusting as `trust` says; `peer` names the
    /// server in errors. The handshake is ``handshake()``.
    init(descriptor: Int32, trust: APIConnection.TLS) throws(APIConnection.ConnectionError) {
        context = try Self.context(caFile: trust.caFile)
        guard let ssl = photos_SSL_new(context) else {
            photos_SSL_CTX_free(context)
            throw .init("cannot start TLS: \(Self.queuedReason() ?? "SSL_new failed")")
        }
        self.ssl = ssl
        guard photos_SSL_set_fd(ssl, descriptor) == 1 else {
            throw .init("cannot start TLS: \(Self.queuedReason() ?? "SSL_set_fd failed")")
        }
        // The certificate must name the server: a DNS name (with SNI, so that a server with
        // several names picks this one's certificate) or, for an IP literal, its address.
        let named = photos_SSL_expect_host(ssl, trust.serverName, Self.isIPLiteral(trust.serverName) ? 1 : 0) == 1
        guard named else { throw .init("cannot check a certificate for \(trust.serverName)") }
    }

    deinit {
        photos_SSL_free(ssl)
        photos_SSL_CTX_free(context)
    }

    /// A client context: TLS 1.2 or newer, the peer's certificate verified against `caFile`'s
    /// authorities or the system's. The caller frees it (`SSL_CTX_free`).
    static func context(caFile: String?) throws(APIConnection.ConnectionError) -> OpaquePointer {
        // OpenSSL is opened on the first https connection, not when the program starts.
        var loadError = [CChar](repeating: 0, count: 256)
        guard photos_tls_load(&loadError, loadError.count) == 0 else {
            let reason = String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .init("cannot start TLS: \(reason)")
        }
        photos_ERR_clear_error()
        guard let context = photos_SSL_CTX_new() else {
            throw .init("cannot start TLS: \(queuedReason() ?? "SSL_CTX_new failed")")
        }
        guard photos_SSL_CTX_require_tls12(context) == 1 else {
            photos_SSL_CTX_free(context)
            throw .init("cannot start TLS: \(queuedReason() ?? "cannot require TLS 1.2")")
        }
        photos_SSL_CTX_eof_ends_stream(context)
        photos_SSL_CTX_verify_peer(context)
        if let caFile {
            guard photos_SSL_CTX_load_verify_file(context, caFile) == 1 else {
                // The last error is the loader's ("no certificate or crl found"); the first, the decoder's.
                let reason = queuedReason(last: true) ?? "no certificate in it"
                photos_SSL_CTX_free(context)
                throw .init("cannot load the CA file \(caFile): \(reason)")
            }
        } else if photos_SSL_CTX_set_default_verify_paths(context) != 1 {
            photos_SSL_CTX_free(context)
            throw .init("cannot load the system's CA certificates: \(queuedReason() ?? "unknown error")")
        }
        return context
    }

    /// The TLS handshake, the server's certificate checked; a refused one says why
    /// (`certificate verify failed: unable to get local issuer certificate`).
    func handshake() throws(APIConnection.ConnectionError) {
        let (result, code) = call { photos_SSL_connect(ssl) }
        guard result == 1 else { throw failure(result, errno: code, doing: "handshake") }
        established = true
    }

    /// Writes some of `bytes`; how many.
    func write(_ bytes: UnsafeRawBufferPointer) throws(APIConnection.ConnectionError) -> Int {
        let (result, code) = call { photos_SSL_write(ssl, bytes.baseAddress, Int32(clamping: bytes.count)) }
        guard result > 0 else { throw failure(result, errno: code, doing: "write") }
        return Int(result)
    }

    /// Reads what has arrived into `buffer` (waiting for some); 0 at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(APIConnection.ConnectionError) -> Int {
        let (result, code) = call { photos_SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count)) }
        if result > 0 { return Int(result) }
        switch photos_SSL_get_error(ssl, result) {
        case SSL_ERROR_ZERO_RETURN: return 0
        // OpenSSL 1.1.1's way of saying the peer closed without close_notify.
        case SSL_ERROR_SYSCALL where code == 0 && photos_ERR_peek_error() == 0: return 0
        default: throw failure(result, errno: code, doing: "read")
        }
    }

    /// Sends close_notify (once, not waiting for the server's), unless the session failed. Called
    /// before the socket is closed, never after.
    func close() {
        guard established, !broken else { return }
        broken = true
        _ = call { photos_SSL_shutdown(ssl) }
    }

    /// Runs an OpenSSL call with an empty error queue (as `SSL_get_error` needs) and SIGPIPE
    /// blocked on this thread; a SIGPIPE it raised is taken off the thread before the mask is put
    /// back. Returns the call's result and the errno it left.
    private func call(_ body: () -> Int32) -> (Int32, Int32) {
        photos_ERR_clear_error()
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        errno = 0
        let result = body()
        let code = errno
        if sigismember(&previous, SIGPIPE) == 0 {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipe, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return (result, code)
    }

    /// Why a call returning `result` failed, in OpenSSL's words.
    private func failure(_ result: Int32, errno code: Int32, doing what: String) -> APIConnection.ConnectionError {
        let kind = photos_SSL_get_error(ssl, result)
        if kind == SSL_ERROR_SSL || kind == SSL_ERROR_SYSCALL { broken = true }
        let reason: String
        switch kind {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            // The socket's timeout (EAGAIN), which OpenSSL reports as "try again".
            reason = "\(what) timed out"
        case SSL_ERROR_ZERO_RETURN:
            reason = "the server closed the TLS session"
        case SSL_ERROR_SYSCALL:
            reason =
                Self.queuedReason()
                ?? (code == 0 ? "connection closed by the server" : String(cString: strerror(code)))
        default:
            let verified = photos_SSL_get_verify_result(ssl)
            if verified != X509_V_OK {
                // The error queue says only "certificate verify failed"; the check says which.
                reason = "certificate verify failed: " + String(cString: photos_X509_verify_cert_error_string(verified))
            } else {
                reason = Self.queuedReason() ?? "TLS error"
            }
        }
        photos_ERR_clear_error()
        return .init(reason)
    }

    /// The reason of the oldest (or `last`) error on OpenSSL's queue for this thread (`wrong
    /// version number`, `tlsv1 alert protocol version`), nil if it is empty. The queue is emptied.
    private static func queuedReason(last: Bool = false) -> String? {
        let error = last ? photos_ERR_peek_last_error() : photos_ERR_get_error()
        defer { photos_ERR_clear_error() }
        guard error != 0 else { return nil }
        if let reason = photos_ERR_reason_error_string(error) { return String(cString: reason) }
        var text = [CChar](repeating: 0, count: 256)
        photos_ERR_error_string_n(error, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `host` is an IPv4 or IPv6 literal (then no SNI, and an IP check).
    static func isIPLiteral(_ host: String) -> Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return inet_pton(AF_INET, host, &ipv4) == 1 || inet_pton(AF_INET6, host, &ipv6) == 1
    }
}
