import Foundation
import Hummingbird
import PhotosStore
import PhotosWire

/// `POST /v1/hooks/{name}/resume`: unparks a hook as `photos hooks resume NAME` does (its failures
/// forgotten, run again from its cursor by the daemon), and answers the hook's status as
/// `GET /v1/status` lists it (``PhotosWire/HookStatus``). A hook the library has never run is a 404.
/// Read-write clients only (``AccessMiddleware/refusal(_:path:access:)``).
struct HookRoutes: Sendable {
    let database: LibraryDatabase

    func add(to router: Router<APIContext>) {
        router.post("/v1/hooks/{name}/resume") { _, context in
            let name = context.parameters.get("name") ?? ""
            return try self.resume(PercentDecoding.decode(name) ?? name)
        }
    }

    func resume(_ name: String) throws -> Response {
        let state: HookState
        do {
            state = try database.resumeHook(name)
        } catch let error as StoreError where error.code == .notFound {
            throw APIError(.notFound, error.message)
        } catch {
            throw APIError(.serviceUnavailable, "cannot resume hook \(name): \(error)")
        }
        // As `GET /v1/status` shows each hook (`DaemonStatus.addHooks(from:)`).
        let status = HookStatus(
            name: state.name, command: nil, enabled: state.enabled, state: state,
            lag: try? database.changeCount(after: state.cursor))
        return try APIServer.json(status)
    }
}
