import Dispatch
import Foundation
import Logging
import PhotosClient
import Synchronization

/// One run of a webhook: the payload POSTed to the hook's URL, signed when the hook has a secret,
/// over TLS for an https URL.
///
/// The same run as ``HookProcess``'s, with "a program reads the payload on stdin" replaced by "a
/// server answers the POST": a 2xx answer is success; anything else (no connection, a refused
/// certificate, no answer within the hook's timeout, another status) is a failed run, whose
/// outcome (`HTTP 500`, `cannot connect to 127.0.0.1:8080: Connection refused`, `TLS handshake
/// with nas.home:443 failed: certificate verify failed: unable to get local issuer certificate`)
/// and the start of the answer's body are recorded where an exec hook's exit status and stderr are.
///
/// The request (the name lookup, the connection, the TLS handshake, the exchange) is blocking
/// I/O on a thread of its own, never on Swift's shared pool. The timeout and the daemon stopping
/// end it from outside (``APIConnection/Cancellation``: `shutdown` on the socket, or the end of
/// the lookup's wait), so a server that accepts and never answers, or a resolver that never
/// answers, costs the daemon that thread for at most the hook's `timeout_s`.
struct HookPost: Sendable {
    var url: WebhookURL
    var secret: WebhookSecret?
    /// For https: the authorities trusted instead of the system's.
    var caFile: WebhookCAFile?
    var hook: String
    var timeout: Duration
    var logger: Logger

    /// The request's headers: the body's type, the hook, its range of tokens, and the signature.
    func headers(since: Int64, until: Int64, body: [UInt8]) -> [String: String] {
        var headers = [
            "Content-Type": "application/json", "User-Agent": "photosd", "X-Photos-Hook": hook,
            "X-Photos-Since": "\(since)", "X-Photos-Until": "\(until)",
        ]
        if let secret { headers["X-Photos-Signature"] = secret.signature(of: body) }
        return headers
    }

    /// POSTs `input`; `started` is called as the connection is opened.
    func run(input: [UInt8], since: Int64, until: Int64, started: @Sendable () -> Void = {}) async
        -> HookProcess.Outcome
    {
        let startedAt = Date()
        let clock = ContinuousClock()
        let begin = clock.now
        let attempt = Attempt()
        let (url, caFile, headers, logger) = (url, caFile, headers(since: since, until: until, body: input), logger)
        // Whole seconds for the socket's own timeouts; the timer below holds the run to `timeout`.
        let seconds = max(1, Int(timeout.timeInterval.rounded(.up)))
        started()
        let timer = DispatchWorkItem { attempt.stop(timedOut: true) }
        HookProcess.signals.asyncAfter(deadline: .now() + timeout.timeInterval, execute: timer)
        defer { timer.cancel() }
        // The answer with whether the run was stopped when it came: the task that awaits it may
        // resume later than that (Swift's pool busy), and a quick failure is not a timeout.
        let (answer, stopped): (Answer, (timedOut: Bool, cancelled: Bool)) = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    let answer = Self.post(
                        input, to: url, caFile: caFile, headers: headers, seconds: seconds, attempt: attempt,
                        logger: logger)
                    continuation.resume(returning: (answer, attempt.stopped))
                }.start()
            }
        } onCancel: {
            attempt.stop(timedOut: false)
        }
        let termination: HookProcess.Termination
        let (timedOut, cancelled) = stopped
        if let status = answer.status {
            // An answer counts even if the run was stopped while its body was read.
            termination = .answered(status)
        } else if cancelled || Task.isCancelled {
            termination = .cancelled
        } else if timedOut {
            termination = .timedOut(timeout)
        } else {
            termination = .unreachable(answer.failure ?? "no answer")
        }
        return HookProcess.Outcome(
            termination: termination, errorTail: answer.body, outputBytes: answer.bodyBytes, startedAt: startedAt,
            duration: clock.now - begin)
    }

    /// What the server said, or why it said nothing.
    struct Answer: Sendable {
        var status: Int?
        var body = ""
        var bodyBytes = 0
        var failure: String?
    }

    /// The blocking request, on the calling thread.
    static func post(
        _ body: [UInt8], to url: WebhookURL, caFile: WebhookCAFile?, headers: [String: String], seconds: Int,
        attempt: Attempt, logger: Logger
    ) -> Answer {
        let connection: APIConnection
        let tls = url.scheme == .https ? APIConnection.TLS(serverName: url.serverName, caFile: caFile?.path) : nil
        do {
            connection = try APIConnection(
                host: url.host, port: url.port, timeout: seconds, tls: tls, hostHeader: url.hostHeader,
                cancellation: attempt.cancellation)
        } catch {
            return Answer(failure: "\(error)")
        }
        let status: Int
        do {
            status = try connection.send("POST", url.target, headers: headers, body: body).status
        } catch {
            return Answer(failure: "no HTTP answer from \(url.hostHeader): \(error)")
        }
        // A success's body is not read: nothing waits on a server that keeps the connection open.
        guard !(200..<300).contains(status) else { return Answer(status: status) }
        let start = (try? connection.readBody(atMost: HookProcess.tailBytes)) ?? []
        let text = String(decoding: start, as: UTF8.self)
        logger.warning("the webhook answered \(status)", metadata: ["url": "\(url)", "body": "\(text)"])
        return Answer(status: status, body: text, bodyBytes: start.count)
    }

    /// One request's cancellation, and whether the timeout or the daemon stopped it; either ends
    /// the request from outside, at whatever step it is (lookup, connect, handshake, exchange).
    final class Attempt: Sendable {
        /// Handed to the request's connection before it exists, so that no stop is missed.
        let cancellation = APIConnection.Cancellation()
        private let state = Mutex<(timedOut: Bool, cancelled: Bool)>((false, false))

        func stop(timedOut: Bool) {
            state.withLock { state in
                if timedOut { state.timedOut = true } else { state.cancelled = true }
            }
            cancellation.cancel()
        }

        var stopped: (timedOut: Bool, cancelled: Bool) { state.withLock { ($0.timedOut, $0.cancelled) } }
    }
}
